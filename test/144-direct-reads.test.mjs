// The listing and the encoded message reads (tail, envelopes, restore) go through read-only
// SQLite connections of their own (persistence/sqlite/rawdb), beside the writer's. Through the
// real addon: they see every write committed before them, this process's and another's; a
// message still streaming (read from its block rows on the same connection) reads as the
// whole-session read gives it; the async forms give what the sync ones give; and a closed
// store refuses them with STORE_CLOSED.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openStore, tempDir, sqliteFileOnly, SessionError, HELPERS } from './helpers/common.mjs';

const FIELDS = ['id', 'title', 'messageCount'];

/** writeElsewhere records a session of `count` messages titled `title` in another process. */
function writeElsewhere(db, title, count) {
  const dist = path.join(HELPERS, '..', '..', 'dist', 'index.js');
  const script = `
    const { openStore } = require(${JSON.stringify(dist)});
    const store = openStore(${JSON.stringify(db)});
    const s = store.createSession({ title: ${JSON.stringify(title)} });
    for (let i = 0; i < ${count}; i++) s.appendUserMessage('elsewhere ' + i);
    s.close();
    store.close();
    process.stdout.write(s.id);`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
}

test('direct reads see every committed write, this process\'s and another\'s', { skip: sqliteFileOnly('the SQLite read connections') }, async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const store = openStore(db);
  t.after(() => store.close());
  const s = store.createSession({ title: 'here' });
  for (let i = 1; i <= 30; i++) {
    s.appendUserMessage(`message ${i} ${'→'.repeat(i * 50)}`);
    await store.flush();
    const [listed] = store.listSessions({ fields: FIELDS });
    assert.deepEqual(listed, { id: s.id, title: 'here', messageCount: i }, `after message ${i}`);
    const [last] = s.tail(1);
    assert.equal(last.message.content[0]?.text ?? last.message.content, `message ${i} ${'→'.repeat(i * 50)}`);
  }
  // Another process's session, committed while this store's read connections are open.
  const other = writeElsewhere(db, 'elsewhere', 7);
  const listing = store.listSessions({ fields: FIELDS });
  assert.deepEqual(listing.map((i) => i.id).sort(), [s.id, other].sort());
  assert.equal(listing.find((i) => i.id === other).messageCount, 7);
  const o = store.openSession(other);
  assert.deepEqual(o.tail(2).map((e) => e.message.content[0]?.text ?? e.message.content), ['elsewhere 5', 'elsewhere 6']);
  o.close();
});

test('a message still streaming reads as the whole session gives it, sync and async alike', { skip: sqliteFileOnly('the SQLite read connections') }, async (t) => {
  const store = openStore(path.join(tempDir(t), 'sessions.db'));
  t.after(() => store.close());
  const s = store.createSession({ title: 'streaming' });
  s.appendUserMessage('large: ' + 'lorem ipsum '.repeat(20000)); // stored packed
  s.ingest({ type: 'text', text: 'done before' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  s.appendUserMessage('go on');
  s.ingest({ type: 'text', text: 'still streaming…' });
  await store.flush();
  const all = s.envelopes();
  assert.equal(all.length, 4);
  assert.equal(all[3].message.content[0].text, 'still streaming…');
  assert.deepEqual(s.tail(3), all.slice(-3));
  assert.deepEqual(await s.tailAsync(3), all.slice(-3));
  assert.deepEqual(await s.envelopesAsync(), all);
  assert.deepEqual(await store.listSessionsAsync({ fields: FIELDS }), store.listSessions({ fields: FIELDS }));
});

test('a closed store refuses the listing and the reads with STORE_CLOSED', { skip: sqliteFileOnly('the SQLite read connections') }, async (t) => {
  const store = openStore(path.join(tempDir(t), 'sessions.db'));
  const s = store.createSession({ title: 'closing' });
  s.appendUserMessage('hello');
  assert.equal(store.listSessions().length, 1); // opens a read connection, then kept idle
  assert.equal(s.tail(1).length, 1);
  await store.close();
  assert.throws(() => store.listSessions(), (err) => err instanceof SessionError && err.code === 'STORE_CLOSED');
  assert.throws(() => s.tail(1), (err) => err instanceof SessionError && err.code === 'STORE_CLOSED');
});
