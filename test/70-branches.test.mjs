// Branches (seed 002) through the addon: session.tree(), rewind() and fork(), sidechains
// kept beside the main chain and out of its context, and all of it across processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, dumpInChild, sessionError } from './helpers/common.mjs';

/** exchange records a prompt and its text reply with usage; it returns their envelopes. */
function exchange(s, prompt, reply, inputTokens) {
  const user = s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', id: `msg_${reply}`, model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: reply });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: inputTokens, output_tokens: 10 } });
  return [user, s.envelopes().at(-1)];
}

const texts = (s) => s.messages().map((m) => m.content[0].text);

test('rewind() starts a branch without deleting anything; rewinding again switches back', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const [, a1] = exchange(s, 'Write a haiku', 'Autumn moon…', 100);
  const [u2, a2] = exchange(s, 'Make it rhyme', 'The moon in June…', 200);

  await s.rewind(a1.uuid);
  assert.deepEqual(texts(s), ['Write a haiku', 'Autumn moon…']);
  assert.deepEqual(s.envelopes().map((e) => e.uuid), [s.envelopes()[0].uuid, a1.uuid]);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 1 }]);
  assert.deepEqual(s.tokenTracker(), {
    inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 100,
  });

  const [u3] = exchange(s, 'Make it about the sea', 'Waves fold…', 300);
  assert.equal(u3.parentUuid, a1.uuid, 'the next message follows the head');
  assert.equal(u3.turn, 1);
  assert.deepEqual(texts(s), ['Write a haiku', 'Autumn moon…', 'Make it about the sea', 'Waves fold…']);
  assert.equal(s.tokenTracker().inputTokens, 400);

  let tree = s.tree();
  assert.equal(tree.nodes.length, 6, 'nothing was deleted');
  assert.deepEqual(tree.roots, [tree.nodes[0].uuid]);
  const a1Node = tree.nodes.find((n) => n.uuid === a1.uuid);
  assert.deepEqual(a1Node.children, [u2.uuid, u3.uuid]);
  assert.deepEqual(tree.nodes.map((n) => [n.preview, n.onBranch, n.isHead]), [
    ['Write a haiku', true, false], ['Autumn moon…', true, false],
    ['Make it rhyme', false, false], ['The moon in June…', false, false],
    ['Make it about the sea', true, false], ['Waves fold…', true, true],
  ]);
  assert.deepEqual(await s.treeAsync(), tree);

  await s.rewind(a2.uuid);
  assert.deepEqual(texts(s), ['Write a haiku', 'Autumn moon…', 'Make it rhyme', 'The moon in June…']);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 1 }, { index: 1, startIndex: 2, endIndex: 3 }]);
  assert.equal(s.tokenTracker().inputTokens, 300);
  assert.equal(s.tokenTracker().contextTokens, 200);
  tree = s.tree();
  assert.equal(tree.head, a2.uuid);

  // Another process sees the same branch, and the next message there follows the head.
  await s.flush();
  const child = await dumpInChild(db, s.id);
  assert.deepEqual(child.messages, s.messages());
  assert.deepEqual(child.envelopes, s.envelopes());
  assert.deepEqual(child.turns, s.turns());
  assert.deepEqual(child.tokenTracker, s.tokenTracker());
  store.close();

  const { openStore } = await import('./helpers/common.mjs');
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.equal(reopened.tree().head, a2.uuid);
  assert.equal(reopened.appendUserMessage('And a title?').parentUuid, a2.uuid);
});

test('calls made while a rewind is pending wait for it', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const [, a1] = exchange(s, 'one', 'first', 1);
  exchange(s, 'two', 'second', 2);
  const pending = s.rewind(a1.uuid);
  const next = s.appendUserMessage('three');
  await pending;
  assert.equal(next.parentUuid, a1.uuid);
  assert.deepEqual(texts(s), ['one', 'first', 'three']);
});

test('a rewind ends the message streaming, as interrupted, off the branch', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const u1 = s.appendUserMessage('Explain monads');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'text', text: 'A monad is a' });
  await s.rewind(u1.uuid);
  assert.deepEqual(s.messages(), [{ role: 'user', content: [{ type: 'text', text: 'Explain monads' }] }]);
  const cut = s.tree().nodes[1];
  assert.deepEqual([cut.status, cut.onBranch, cut.preview], ['interrupted', false, 'A monad is a']);
});

test('rewind() refuses what is not a main-chain message of the session', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  exchange(s, 'one', 'first', 1);
  const side = s.appendUserMessage('subtask', { agentId: 'a1' });
  const before = s.envelopes();
  await assert.rejects(s.rewind('0190ffff-0000-7000-8000-000000000000'), sessionError('MESSAGE_NOT_FOUND', /no message/));
  await assert.rejects(s.rewind(side.uuid), sessionError('INVALID_ARGUMENT', /sidechain/));
  await assert.rejects(s.rewind(''), sessionError('INVALID_ARGUMENT'));
  await assert.rejects(s.rewind(42), TypeError);
  await assert.rejects(s.fork(42), TypeError);
  assert.deepEqual(s.envelopes(), before);
});

/** recordSubagent records a prompt whose reply runs a subagent through Task tool call toolu_task. */
function recordSubagent(s) {
  const prompt = s.appendUserMessage('Write a poem about curry');
  s.ingest({ type: 'message_start', id: 'msg_main_1', model: 'claude-opus-4-5' });
  s.ingest({ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Research curry' } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 50, output_tokens: 5 } });
  const call = s.envelopes().at(-1);
  const side = { agentId: 'a5bdbc1', parentToolUseId: 'toolu_task' };
  s.appendUserMessage('Research curry', side);
  s.ingest({ type: 'message_start', id: 'msg_sub_1', model: 'claude-haiku-4-5', ...side });
  s.ingest({ type: 'text', text: 'Turmeric, coconut.' });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 7, output_tokens: 3 } });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_task', content: 'Turmeric, coconut.' });
  s.ingest({ type: 'message_start', id: 'msg_main_2' });
  s.ingest({ type: 'text', text: 'Golden turmeric…' });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 90, output_tokens: 20 } });
  return { prompt, call };
}

test('sidechains hang off the tool call that started them and stay out of the context', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const { prompt, call } = recordSubagent(s);

  assert.deepEqual(s.messages().map((m) => [m.role, m.content[0].type]), [
    ['user', 'text'], ['assistant', 'tool_use'], ['user', 'tool_result'], ['assistant', 'text'],
  ]);
  const tree = s.tree();
  const byUuid = new Map(tree.nodes.map((n) => [n.uuid, n]));
  const sideRoot = tree.nodes.find((n) => n.isSidechain && n.parentUuid === null);
  assert.deepEqual(byUuid.get(call.uuid).children.sort(), [sideRoot.uuid, tree.nodes[4].uuid].sort());
  assert.deepEqual([sideRoot.agentId, sideRoot.parentToolUseId, sideRoot.preview], ['a5bdbc1', 'toolu_task', 'Research curry']);
  assert.deepEqual(sideRoot.children, [tree.nodes[3].uuid]);
  assert.equal(byUuid.get(call.uuid).preview, '[tool_use Task]');
  assert.deepEqual(tree.roots, [prompt.uuid], 'the sidechain is under its call, not a root');

  // Back before the call, its sidechain goes with it.
  await s.rewind(prompt.uuid);
  assert.deepEqual(s.envelopes().map((e) => e.uuid), [prompt.uuid]);
  assert.deepEqual(s.tokenTracker().inputTokens, 0);
  await s.rewind(call.uuid);
  assert.deepEqual(s.envelopes().map((e) => [e.type, e.isSidechain]), [
    ['user', false], ['assistant', false], ['user', true], ['assistant', true],
  ]);
  assert.deepEqual(s.messages().length, 2, 'the subagent\'s messages are not the main context');
  assert.equal(s.tokenTracker().inputTokens, 57);
});

test('fork() copies the branch into a new session that remembers where it came from', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ title: 'Curry poem' });
  const { prompt, call } = recordSubagent(s);
  const origin = s.envelopes();

  const f = await s.fork();
  assert.notEqual(f.id, s.id);
  const copied = f.envelopes();
  assert.deepEqual(copied.map(({ sessionId, ...rest }) => rest), origin.map(({ sessionId, ...rest }) => rest));
  assert.ok(copied.every((e) => e.sessionId === f.id));
  assert.deepEqual(f.messages(), s.messages());
  assert.deepEqual(f.turns(), s.turns());
  assert.deepEqual(f.tokenTracker(), s.tokenTracker());
  const info = f.details();
  assert.deepEqual(info.forkedFrom, { sessionId: s.id, uuid: origin.at(-1).uuid });
  assert.equal(info.title, 'Curry poem');
  assert.equal(info.messageCount, origin.length);
  assert.equal(s.details().forkedFrom, undefined);
  assert.deepEqual(store.listSessions().map((i) => [i.id, i.forkedFrom?.sessionId]), [[f.id, s.id], [s.id, undefined]]);

  // From the call: the sidechain comes along, the result and the reply do not.
  const atCall = await s.fork(call.uuid);
  assert.deepEqual(atCall.envelopes().map((e) => [e.type, e.isSidechain]), [
    ['user', false], ['assistant', false], ['user', true], ['assistant', true],
  ]);
  const answered = atCall.appendUserMessage([{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'Cardamom.' }]);
  assert.equal(answered.parentUuid, call.uuid);
  assert.equal(s.envelopes().length, origin.length, 'writing to a fork leaves its origin alone');

  const fromPrompt = await s.fork(prompt.uuid);
  assert.deepEqual(fromPrompt.messages(), [{ role: 'user', content: [{ type: 'text', text: 'Write a poem about curry' }] }]);
  await assert.rejects(s.fork('0190ffff-0000-7000-8000-000000000000'), sessionError('MESSAGE_NOT_FOUND'));

  await store.flush();
  const child = await dumpInChild(db, atCall.id);
  assert.deepEqual(child.envelopes, atCall.envelopes());
  assert.deepEqual(child.sessions.find((i) => i.id === atCall.id).forkedFrom, { sessionId: s.id, uuid: call.uuid });
});
