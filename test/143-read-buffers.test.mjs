// Synchronous reads encode into a buffer kept for the next read (bridge/read.go), and the
// listing is encoded as SQLite returns its rows (catalog.EncodeListValues). What one read returned
// must never change when the next read reuses the buffer, whatever the sizes: a long read
// then a short one, a message larger than any buffer kept, reads of other sessions between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';

test('a read keeps what it returned when the next read reuses its buffer', (t) => {
  const { store } = tempStore(t);
  const long = store.createSession();
  for (let i = 0; i < 60; i++) long.appendUserMessage(`long ${i} ${'x'.repeat(4000)} → ✓`);
  const short = store.createSession();
  short.appendUserMessage('short');
  const huge = store.createSession();
  const big = 'y'.repeat(3 << 20); // beyond what is kept for the next read
  huge.appendUserMessage(big);

  const first = long.tail(60);
  const copy = JSON.stringify(first);
  const second = short.tail(5);
  assert.equal(second.length, 1);
  assert.equal(second[0].message.content[0].text ?? second[0].message.content, 'short');
  const third = huge.tail(1);
  assert.equal(JSON.stringify(third).includes(big), true);
  const fourth = long.tail(2);
  assert.equal(JSON.stringify(first), copy, 'an earlier result changed');
  assert.deepEqual(fourth, first.slice(-2));
  assert.deepEqual(long.tail(60), first);
  assert.deepEqual(short.envelopes(), second);
});

test('a listing of some fields is the same fields of the full listing, in its order', (t) => {
  const { store } = tempStore(t);
  for (let i = 0; i < 30; i++) {
    const s = store.createSession({ projectPath: `/p${i % 3}`, title: `session ${i} → "q"` });
    if (i % 4 === 0) s.appendUserMessage(`hello ${i}`);
  }
  const full = store.listSessions();
  const some = store.listSessions({ fields: ['id', 'title', 'messageCount', 'updatedAt'] });
  assert.equal(some.length, 30);
  assert.deepEqual(some, full.map((i) => ({ id: i.id, title: i.title, messageCount: i.messageCount, updatedAt: i.updatedAt })));
  const p1 = store.listSessions({ projectPath: '/p1', limit: 4, offset: 2 });
  assert.deepEqual(p1, full.filter((i) => i.projectPath === '/p1').slice(2, 6));
  store.archiveSession(full[0].id);
  assert.equal(store.listSessions({ fields: ['id'] }).some((i) => i.id === full[0].id), false);
  assert.equal(store.listSessions({ fields: ['id'], includeArchived: true }).length, 30);
});
