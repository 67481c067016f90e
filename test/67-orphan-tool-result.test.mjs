// A tool_result for a call that rewind() left off the branch is refused with
// UNKNOWN_TOOL_USE and records nothing: the call is not in the conversation any more, and an
// answer to it would be an orphan on the new branch. Rewinding back to the call accepts the
// result again; the same holds when the session is opened by another process, where the
// call is found in the store rather than in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, openStore, sessionError } from './helpers/common.mjs';

/** callTool records a prompt and a reply that calls tool `id`; it returns both envelopes. */
function callTool(s, prompt, id) {
  const user = s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', id: `msg_${id}`, model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'tool_use', id, name: 'ls', input: { path: '.' } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
  return [user, s.envelopes().at(-1)];
}

/** refused asserts that both ways of answering call `id` are refused and change nothing. */
function refused(s, id) {
  const before = s.tree();
  assert.throws(() => s.ingest({ type: 'tool_result', toolUseId: id, content: 'a.go' }), sessionError('UNKNOWN_TOOL_USE', new RegExp(id)));
  assert.throws(() => s.appendUserMessage([{ type: 'tool_result', tool_use_id: id, content: 'a.go' }]),
    sessionError('UNKNOWN_TOOL_USE', new RegExp(id)));
  assert.deepEqual(s.tree(), before, 'nothing was recorded');
}

test('a tool result for a call a rewind left off the branch is refused; back on its branch it is accepted', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const [u1, a1] = callTool(s, 'List the files', 'toolu_first');
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_first', content: 'a.go' });
  const [u2, a2] = callTool(s, 'And the hidden ones', 'toolu_hidden');

  await s.rewind(u2.uuid); // the prompt stays, the reply that made the call does not
  refused(s, 'toolu_hidden');
  // A call still on the branch is answered as before.
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_first', content: 'a.go again' });
  assert.equal(s.envelopes().at(-1).parentUuid, u2.uuid);

  await s.rewind(a2.uuid);
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_hidden', content: '.env' });
  const answer = s.envelopes().at(-1);
  assert.equal(answer.parentUuid, a2.uuid);
  assert.deepEqual(answer.message.content, [{ type: 'tool_result', tool_use_id: 'toolu_hidden', content: '.env', is_error: false }]);

  await s.rewind(u1.uuid);
  refused(s, 'toolu_first');
  refused(s, 'toolu_hidden');
  assert.equal(a1.message.content[0].id, 'toolu_first');
});

test('another process refuses a result for a call off the branch, found in the store', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const [u1] = callTool(s, 'List the files', 'toolu_old');
  await s.rewind(u1.uuid);
  await s.flush();
  const id = s.id;
  store.close();

  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(id);
  refused(reopened, 'toolu_old');
  const [, a2] = callTool(reopened, 'Try again', 'toolu_new');
  reopened.ingest({ type: 'tool_result', toolUseId: 'toolu_new', content: 'b.go' });
  assert.equal(reopened.envelopes().at(-1).parentUuid, a2.uuid);
  refused(reopened, 'toolu_old');
});
