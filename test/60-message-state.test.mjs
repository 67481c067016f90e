// Per-message state (seed 002) through the addon: context, todos, thinkingMetadata and
// sidechains, set with session.setContext(), appendUserMessage() options and message_start
// fields, shown by envelopes() and kept across processes; sidechains stay out of messages().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, dumpInChild, sessionError } from './helpers/common.mjs';

const CONTEXT = { cwd: '/work/app', gitBranch: 'feature/x', platform: 'linux' };
const TODOS = [
  { content: 'Read the config', status: 'completed', activeForm: 'Reading the config' },
  { content: 'Write the poem', status: 'in_progress', activeForm: 'Writing the poem' },
];
const THINKING = { level: 'high', disabled: false, triggers: ['think harder'] };

/** recordWithSubagent records a main conversation that runs one subagent to its end. */
function recordWithSubagent(s) {
  s.setContext(CONTEXT);
  s.appendUserMessage('Write a poem about curry', { todos: TODOS, thinkingMetadata: THINKING });
  s.ingest({ type: 'message_start', id: 'msg_main_1', model: 'claude-opus-4-5' });
  s.ingest({ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Research curry, write a poem' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });

  const side = { agentId: 'a5bdbc1', parentToolUseId: 'toolu_task' };
  s.appendUserMessage('Research curry, write a poem', side);
  s.ingest({ type: 'message_start', id: 'msg_sub_1', model: 'claude-haiku-4-5', ...side, context: { cwd: '/tmp/agent' } });
  s.ingest({ type: 'tool_use', id: 'toolu_search', name: 'WebSearch', input: { query: 'curry' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_search', content: 'turmeric, coconut' });
  s.ingest({ type: 'text', text: 'Golden turmeric…' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });

  s.ingest({ type: 'tool_result', toolUseId: 'toolu_task', content: 'Golden turmeric…' });
  s.ingest({ type: 'message_start', id: 'msg_main_2', todos: [] });
  s.ingest({ type: 'text', text: 'Here is your poem.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
}

test('envelopes() carry each message\'s state; messages() is the main conversation only', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  recordWithSubagent(s);

  const env = s.envelopes();
  assert.deepEqual(env.map((e) => [e.type, e.isSidechain, e.agentId, e.parentToolUseId]), [
    ['user', false, undefined, undefined],
    ['assistant', false, undefined, undefined],
    ['user', true, 'a5bdbc1', 'toolu_task'],
    ['assistant', true, 'a5bdbc1', 'toolu_task'],
    ['tool_result', true, 'a5bdbc1', 'toolu_task'],
    ['assistant', true, 'a5bdbc1', 'toolu_task'],
    ['tool_result', false, undefined, undefined],
    ['assistant', false, undefined, undefined],
  ]);
  assert.deepEqual(env.map((e) => e.context), [CONTEXT, CONTEXT, CONTEXT, { cwd: '/tmp/agent' }, CONTEXT, CONTEXT, CONTEXT, CONTEXT]);
  assert.deepEqual(env[0].todos, TODOS);
  assert.deepEqual(env[0].thinkingMetadata, THINKING);
  assert.deepEqual(env[7].todos, []);
  assert.equal(env[1].todos, undefined);

  // Each chain is linked on its own: the sidechain starts from nothing, the main chain
  // goes on past it.
  assert.deepEqual(env.map((e) => e.parentUuid), [
    null, env[0].uuid, null, env[2].uuid, env[3].uuid, env[4].uuid, env[1].uuid, env[6].uuid,
  ]);
  assert.deepEqual(s.messages().map((m) => [m.role, m.content.map((b) => b.type).join()]), [
    ['user', 'text'], ['assistant', 'tool_use'], ['user', 'tool_result'], ['assistant', 'text'],
  ]);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 3 }]);

  await s.flush();
  const child = await dumpInChild(db, s.id);
  assert.deepEqual(child.envelopes, env);
  assert.deepEqual(child.messages, s.messages());
});

test('appendUserMessage() returns the state it stored', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.setContext({ cwd: '/a', extra: { shell: 'zsh' } });
  const e = s.appendUserMessage('hi', { todos: TODOS, context: null });
  assert.deepEqual(e.context, { cwd: '/a', extra: { shell: 'zsh' } }, 'a null context option means the session\'s');
  assert.deepEqual(e, s.envelopes()[0]);
  s.setContext(null);
  assert.equal(s.appendUserMessage('again').context, undefined);
});

test('bad state is refused and records nothing', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('hi');
  const before = s.envelopes();
  assert.throws(() => s.appendUserMessage('x', { todos: { not: 'a list' } }), sessionError('INVALID_ARGUMENT', /todos/));
  assert.throws(() => s.appendUserMessage('x', { isSidechain: false, agentId: 'a1' }), sessionError('INVALID_ARGUMENT', /isSidechain/));
  assert.throws(() => s.ingest({ type: 'message_start', thinkingMetadata: 'high' }), sessionError('INVALID_CHUNK', /thinkingMetadata/));
  assert.throws(() => s.ingest({ type: 'message_start', context: ['cwd'] }), sessionError('INVALID_CHUNK', /context/));
  assert.throws(() => s.setContext(['/a']), sessionError('INVALID_ARGUMENT', /context/));
  assert.throws(() => s.setContext('/a'), TypeError);
  assert.throws(() => s.appendUserMessage('x', 'opts'), TypeError);
  assert.deepEqual(s.envelopes(), before);
});
