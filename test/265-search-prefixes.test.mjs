// Issue 30 round 8: on SQLite a search no longer uses FTS5's prefix seek for a typed word's last
// token, but the exact terms it starts (search_terms); on PostgreSQL the statement reads only
// its hits' sessions. What a search finds must not change, on either backend: a word finds the
// words it starts, a word the tokenizer splits finds where it was written, a prefix of many
// words still finds them all, and text written after the first search (its terms added by the
// writer) is found by the next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';

const found = (store, text, options) => store.search(text, { limit: 200, ...options }).map((h) => h.messageUuid).sort();

test('prefixes find the words they start, the same on both backends, and new words once written', (t) => {
  const { store } = tempStore(t);
  const a = store.createSession({ projectPath: '/work/a' });
  const b = store.createSession({ projectPath: '/work/b' });
  const texts = ['testing the grebeparser', 'grebeparser tested twice', 'see src/auth.go:42 for it', 'a TEST in CAPITALS'];
  const uuids = texts.map((text, i) => (i % 2 ? b : a).appendUserMessage(text).uuid);
  const many = [];
  for (let i = 0; i < 40; i++) many.push(b.appendUserMessage(`zanderword${String(i).padStart(2, '0')} once`).uuid);
  assert.deepEqual(found(store, 'test'), [uuids[0], uuids[1], uuids[3]].sort(), 'test, tested, testing, TEST');
  assert.deepEqual(found(store, 'testi'), [uuids[0]], 'a prefix of one word');
  assert.deepEqual(found(store, 'grebe test'), [uuids[0], uuids[1]].sort(), 'two words, both prefixes');
  assert.deepEqual(found(store, 'src/auth.go:42'), [uuids[2]], 'a word the tokenizer splits');
  assert.deepEqual(found(store, 'aut'), [uuids[2]], 'a part of it');
  assert.deepEqual(found(store, 'zanderword'), many.slice().sort(), 'a prefix of 40 words');
  assert.deepEqual(found(store, 'zanderword1'), many.slice(10, 20).sort(), 'a prefix of 10 of them');
  assert.deepEqual(found(store, 'zanderwordz'), [], 'a prefix of none');
  assert.deepEqual(found(store, 'test', { projectPath: '/work/b' }), [uuids[1], uuids[3]].sort(), 'a project');

  const later = a.appendUserMessage('a grebenest appears later').uuid;
  assert.deepEqual(found(store, 'grebe'), [uuids[0], uuids[1], later].sort(), 'a word written after the first search');
  assert.deepEqual(found(store, 'grebene'), [later]);
});
