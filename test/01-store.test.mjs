// The store: openStore, createSession, openSession, close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  openStore, SessionError, sk, tempDir, tempStore, runNodeJSON, dumpInChild, sessionError, UUID_V7, sqliteFileOnly,
} from './helpers/common.mjs';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

test('openStore creates the database file 0600 in a new 0700 directory and reports its path', { skip: sqliteFileOnly('its mode and folder') }, (t) => {
  const dir = tempDir(t);
  const db = path.join(dir, 'nested', 'deeper', 'sessions.db');
  const store = openStore(db);
  t.after(() => store.close());
  assert.equal(store.path, db);
  assert.ok(store instanceof sk.Store);
  assert.equal(fs.statSync(db).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(db)).mode & 0o777, 0o700);
  store.createSession().appendUserMessage('make the WAL exist');
  for (const f of fs.readdirSync(path.dirname(db))) {
    assert.equal(fs.statSync(path.join(path.dirname(db), f)).mode & 0o777, 0o600, f);
  }
});

test('openStore() without a path uses $SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db', { skip: sqliteFileOnly('the default file and its folder') }, async (t) => {
  const dir = tempDir(t);
  const script = path.join(dir, 'default-path.cjs');
  fs.writeFileSync(script, `const { openStore } = require(${JSON.stringify(DIST)});
    const s = openStore(); console.log(JSON.stringify({ path: s.path })); s.close();`);
  const fromEnv = path.join(dir, 'env', 'x.db');
  const a = await runNodeJSON(script, [], { env: { ...process.env, SESSIONKEEP_DB: fromEnv } });
  assert.equal(a.path, fromEnv);
  assert.ok(fs.existsSync(fromEnv));

  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home };
  delete env.SESSIONKEEP_DB;
  const b = await runNodeJSON(script, [], { env });
  assert.equal(b.path, path.join(home, '.sessionkeep', 'sessions.db'));
  assert.ok(fs.existsSync(b.path));
  assert.equal(fs.statSync(path.dirname(b.path)).mode & 0o777, 0o700);
});

test('createSession returns an empty session with a UUID v7 id', (t) => {
  const { store } = tempStore(t);
  const a = store.createSession({ projectPath: '/p' });
  const b = store.createSession();
  assert.ok(a instanceof sk.Session);
  assert.match(a.id, UUID_V7);
  assert.match(b.id, UUID_V7);
  assert.notEqual(a.id, b.id);
  assert.ok(a.id < b.id, 'v7 ids are time ordered');
  assert.deepEqual(a.messages(), []);
  assert.deepEqual(a.envelopes(), []);
  assert.deepEqual(a.turns(), []);
  assert.deepEqual(a.tokenTracker(), {
    inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 0,
  });
});

test('createSession options are validated', (t) => {
  const { store } = tempStore(t);
  assert.throws(() => store.createSession(5), TypeError);
  assert.throws(() => store.createSession(null), TypeError);
  assert.throws(() => store.createSession({ contextWindow: -1 }), sessionError('INVALID_ARGUMENT', /contextWindow/));
  assert.deepEqual(store.listSessions(), []);
});

test('openSession opens a session by id, from this store or a new one on the same file', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('hello');
  s.ingest({ type: 'text', text: 'hi there' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });

  const same = store.openSession(s.id);
  assert.equal(same.id, s.id);
  assert.deepEqual(same.messages(), s.messages());
  same.close();
  assert.equal(s.messages().length, 2, 'closing one of two handles leaves the other open');

  await store.flush();
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.deepEqual(reopened.messages(), [
    { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'hi there' }], stop_reason: 'end_turn' },
  ]);
  // It continues where it was: the next message hangs off the last one.
  const last = reopened.envelopes().at(-1);
  const env = reopened.appendUserMessage('and again');
  assert.equal(env.parentUuid, last.uuid);
  assert.equal(env.turn, last.turn + 1);
});

test('openSession of an unknown id throws SESSION_NOT_FOUND', (t) => {
  const { store } = tempStore(t);
  assert.throws(() => store.openSession('nope'), sessionError('SESSION_NOT_FOUND', /nope/));
  assert.throws(() => store.openSession('01a1fd68-0000-7000-8000-000000000000'), SessionError);
});

test('close is idempotent, and flushes: another process sees everything', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ projectPath: '/closing' });
  s.appendUserMessage('persist me');
  s.ingest({ type: 'text', text: 'persisted' });
  store.close();
  store.close();
  const dump = await dumpInChild(db, s.id);
  assert.deepEqual(dump.messages, [
    { role: 'user', content: [{ type: 'text', text: 'persist me' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'persisted' }] },
  ]);
  // The assistant message was still open at close: it is kept and marked interrupted.
  assert.deepEqual(dump.envelopes.map((e) => e.status), ['complete', 'interrupted']);
});

test('openStore on a file that is not a database throws STORE_CORRUPT', { skip: sqliteFileOnly('a file that is not a database') }, (t) => {
  const dir = tempDir(t);
  const db = path.join(dir, 'notes.txt');
  const text = 'this is a text file, not a SQLite database\n'.repeat(200);
  fs.writeFileSync(db, text);
  assert.throws(() => openStore(db), sessionError('STORE_CORRUPT', /not a database/));
  assert.equal(fs.readFileSync(db, 'utf8'), text, 'the file is left as it was');
});
