// Lost files: the store's folder deleted, or made read-only, while the store is open, and a
// store on a read-only disk. Clear codes (STORE_GONE, READ_ONLY), never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir, sleep, sqliteFileOnly } from './helpers/common.mjs';
import { mountTmpfs, remount } from './helpers/tmpfs.mjs';

function record(s, text) {
  s.appendUserMessage(text);
  s.ingest({ type: 'text', text: `answer to ${text} → ✓` });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
}

test("the store's folder deleted while open: STORE_GONE through flush() and onError, no crash", { skip: sqliteFileOnly('its folder is deleted') }, async (t) => {
  const dir = path.join(tempDir(t), 'project');
  const db = path.join(dir, 'sessions.db');
  const reported = [];
  const store = openStore(db, { onError: (e) => reported.push(e) });
  const s = store.createSession();
  record(s, 'before');
  await s.flush();

  fs.rmSync(dir, { recursive: true });
  record(s, 'after'); // queues, as ever
  await assert.rejects(s.flush(), { name: 'SessionError', code: 'STORE_GONE' });
  await sleep(300);
  assert.deepEqual(reported.map((e) => e.code), ['STORE_GONE']);
  assert.match(reported[0].message, /deleted or moved while the store was open/);
  store.close(); // the store was deleted, maybe on purpose: closing it is no error

  // Opening the path again starts a new, empty store there.
  const again = openStore(db);
  assert.deepEqual(again.listSessions(), []);
  again.close();
});

test("the store's folder and file made read-only while open: writes go on through the open files", { skip: sqliteFileOnly('its folder is made read-only') }, async (t) => {
  const dir = path.join(tempDir(t), 'project');
  const db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  const s = store.createSession();
  record(s, 'before');
  await s.flush();
  for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o400);
  fs.chmodSync(dir, 0o500);
  try {
    record(s, 'after');
    await s.flush();
    assert.equal(s.messages().length, 4);
    store.close();
  } finally {
    fs.chmodSync(dir, 0o700);
  }
});

test('a store on a read-only disk: openStore throws READ_ONLY', { skip: sqliteFileOnly('a read-only disk') }, async (t) => {
  const { dir, skipReason } = mountTmpfs(t, '1m');
  if (!dir) return t.skip(skipReason);
  const db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  record(store.createSession(), 'kept');
  store.close();
  remount(dir, 'ro');
  try {
    assert.throws(() => openStore(db), { name: 'SessionError', code: 'READ_ONLY' });
    assert.throws(() => openStore(path.join(dir, 'new', 'sessions.db')), { name: 'SessionError', code: 'READ_ONLY' });
  } finally {
    remount(dir, 'rw');
  }
});
