// Damage: a session whose stored rows cannot be read is reported and marked corrupted, and
// every other session still lists and loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir, sessionError, sqliteFileOnly } from './helpers/common.mjs';

/**
 * damage flips bytes of the database file in place, as a bad disk or a torn write would:
 * every stored copy of `find` becomes `replace` (the same length). Returns how many it hit.
 */
function damage(db, find, replace) {
  assert.equal(Buffer.byteLength(find), Buffer.byteLength(replace));
  const bytes = fs.readFileSync(db);
  const from = Buffer.from(find);
  let hits = 0;
  for (let i = bytes.indexOf(from); i >= 0; i = bytes.indexOf(from, i + 1)) {
    Buffer.from(replace).copy(bytes, i);
    hits++;
  }
  fs.writeFileSync(db, bytes);
  return hits;
}

test('a damaged block: reading throws SESSION_CORRUPT, the session lists as corrupted, others load', { skip: sqliteFileOnly('bytes of the file are flipped') }, async (t) => {
  const db = path.join(tempDir(t), 'damaged.db');
  let store = openStore(db);
  const bad = store.createSession({ projectPath: '/work/bad' });
  bad.appendUserMessage('first, fine');
  bad.appendUserMessage('CORRUPT-ME this block will be damaged');
  const good = store.createSession({ projectPath: '/work/good' });
  good.appendUserMessage('I am fine');
  store.close(); // everything checkpointed into the database file

  // One copy: the message's body, its only record since migration 10.
  assert.equal(damage(db, '{"type":"text","text":"CORRUPT-ME', '["type":"text","text":"CORRUPT-ME'), 1);

  store = openStore(db);
  t.after(() => store.close());
  const before = Object.fromEntries(store.listSessions().map((i) => [i.id, i.status]));
  assert.deepEqual(before, { [bad.id]: 'active', [good.id]: 'active' }, 'listing reads no blocks: nothing noticed yet');

  const s = store.openSession(bad.id);
  assert.throws(() => s.messages(), sessionError('SESSION_CORRUPT', /block 0 of message 1 .* is not valid JSON/));
  assert.throws(() => s.envelopes(), sessionError('SESSION_CORRUPT'));
  await assert.rejects(s.messagesAsync(), sessionError('SESSION_CORRUPT'));

  const info = store.listSessions().find((i) => i.id === bad.id);
  assert.equal(info.status, 'corrupted');
  assert.match(info.corruption, /block 0 of message 1/);
  assert.equal(s.status, 'corrupted');
  assert.deepEqual(store.openSession(good.id).messages(), [{ role: 'user', content: [{ type: 'text', text: 'I am fine' }] }]);
  assert.equal(store.latestSession('/work/good').id, good.id);

  // store.verify() finds the damage in the bad session's body, and only there.
  const report = await store.verify();
  assert.equal(report.ok, false);
  assert.deepEqual(report.problems.map((p) => [p.code, p.sessionId]), [['BODY_UNREADABLE', bad.id]]);
});
