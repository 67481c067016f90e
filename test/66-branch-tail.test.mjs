// session.lastEnvelope() follows the branch that ends at the head, as messages() and
// envelopes() do: after rewind() it is the record the rewind went back to, after the next
// message that message, and rewinding to the other branch gives that branch's last record.
// The tail read is what a UI polls while a reply streams, so a stale one shows a message
// the conversation no longer holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, openStore } from './helpers/common.mjs';

/** exchange records a prompt and its text reply; it returns their envelopes. */
function exchange(s, prompt, reply) {
  const user = s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', id: `msg_${reply}`, model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: reply });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 10 } });
  return [user, s.envelopes().at(-1)];
}

test('lastEnvelope() is the last record of the branch at the head, after rewinds and across a reopen', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  assert.equal(await s.lastEnvelope(), null);
  const [u1, a1] = exchange(s, 'Write a haiku', 'Autumn moon…');
  const [, a2] = exchange(s, 'Make it rhyme', 'The moon in June…');
  assert.deepEqual(await s.lastEnvelope(), a2);

  await s.rewind(a1.uuid);
  assert.deepEqual(await s.lastEnvelope(), s.envelopes().at(-1));
  assert.equal((await s.lastEnvelope()).uuid, a1.uuid);

  await s.rewind(u1.uuid);
  assert.equal((await s.lastEnvelope()).uuid, u1.uuid);

  const [u3] = exchange(s, 'About the sea, please', 'Waves fold…');
  assert.equal(u3.parentUuid, u1.uuid);
  s.ingest({ type: 'message_start', id: 'msg_streaming', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: 'Salt and' });
  const streaming = await s.lastEnvelope();
  assert.equal(streaming.status, 'streaming');
  assert.deepEqual(streaming.message.content, [{ type: 'text', text: 'Salt and' }]);
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  const a4 = s.envelopes().at(-1);
  assert.deepEqual(await s.lastEnvelope(), a4);

  await s.rewind(a2.uuid); // back to the first branch, written before the rewinds
  assert.deepEqual(await s.lastEnvelope(), a2);

  await s.flush();
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.deepEqual(await reopened.lastEnvelope(), reopened.envelopes().at(-1));
  assert.equal((await reopened.lastEnvelope()).uuid, a2.uuid);
});
