// Many writers on one PostgreSQL store, each a process with a pool of its own: two appending
// to one session, four asking for one hosted agent's key, checkpoints out of order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { helper, openStore, runNodeJSON } from './helpers/common.mjs';
import { freshPgURL, skipWithoutPG } from './helpers/pg.mjs';

const child = helper('pg-child.mjs');

test('two processes appending to one session: the second is refused with the code SQLite gives', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const store = openStore(url);
  t.after(() => store.close());
  const s = store.createSession({ title: 'contended' });
  await store.flush();
  const results = await Promise.all(['first', 'second'].map((who) => runNodeJSON(child, ['append', url, s.id, who, '5'])));
  const refused = results.filter((r) => !r.ok);
  // Both start at seq 0: whichever commits second conflicts with every message of the other.
  assert.equal(refused.length, 1, JSON.stringify(results));
  assert.equal(refused[0].code, 'STORAGE_ERROR');
  assert.match(refused[0].message, /another process writing the same session/);
  const texts = openStore(url).openSession(s.id).messages().map((m) => m.content[0].text);
  assert.equal(texts.length, 5, 'the winner\'s messages, none of the loser\'s');
  const writer = texts[0].split(' ')[0];
  assert.deepEqual(texts, Array.from({ length: 5 }, (_, i) => `${writer} ${i}`));
});

test('sessionByKey from four processes at once makes one session', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  openStore(url).close(); // the schema exists before the race, as on a running service
  const ids = await Promise.all(Array.from({ length: 4 }, () => runNodeJSON(child, ['bykey', url, 'acme:general:bot'])));
  assert.equal(new Set(ids.map((r) => r.id)).size, 1, JSON.stringify(ids));
  const store = openStore(url);
  try {
    assert.equal(store.listSessions().length, 1);
  } finally {
    store.close();
  }
});

test('a checkpoint never moves backwards, whatever order workers commit in', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  for (const id of [7, 42, 9]) await runNodeJSON(child, ['checkpoint', url, 'acme:general:bot', String(id)]);
  const store = openStore(url);
  try {
    assert.equal(store.sessionByKey('acme:general:bot').checkpoint, 42);
  } finally {
    store.close();
  }
});

test('a message written by one worker is seen by the next that opens the session', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  const { id } = await runNodeJSON(child, ['bykey', url, 'acme:general:bot']);
  const store = openStore(url);
  try {
    const s = store.openSession(id);
    s.appendUserMessage('from worker one');
    await store.flush();
  } finally {
    store.close();
  }
  const { ok } = await runNodeJSON(child, ['append', url, id, 'worker two', '1']);
  assert.equal(ok, true, 'the second worker continues after the first\'s message');
  const after = openStore(url);
  try {
    assert.deepEqual(after.openSession(id).messages().map((m) => m.content[0].text), ['from worker one', 'worker two 0']);
  } finally {
    after.close();
  }
});
