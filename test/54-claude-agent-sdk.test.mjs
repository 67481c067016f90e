// fromClaudeAgentSDK: the SDK's process cannot reach a model here, so its message stream is
// built from the installed @anthropic-ai/claude-agent-sdk's own types: test/typed/ is
// compiled with tsc against them first (a message that stops matching SDKMessage fails this
// test), then its messages are driven through the plug-in, and the store is read back
// after reopening.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claudeCodeBinary } from './helpers/claude-code-binary.mjs';
import { HELPERS, openStore, sk, tempStore } from './helpers/common.mjs';

const { fromClaudeAgentSDK } = sk;
const ROOT = path.join(HELPERS, '..', '..');
let typed;
let pathToClaudeCodeExecutable;

before(() => {
  // The SDK's platform binary is not installed by npm ci: fetched into build/ on first use
  // (a minute on a cold cache), before the tests' own timeouts start.
  pathToClaudeCodeExecutable = claudeCodeBinary();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-typed-'));
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), [
    '--strict', '--target', 'es2022', '--module', 'commonjs', '--moduleResolution', 'node10', '--skipLibCheck',
    '--outDir', out, path.join(ROOT, 'test', 'typed', 'claude-agent-sdk-messages.ts'),
  ], { stdio: 'inherit' });
  typed = createRequire(import.meta.url)(path.join(out, 'claude-agent-sdk-messages.js'));
  fs.rmSync(out, { recursive: true, force: true });
});

async function* stream(messages, { throwAt } = {}) {
  for (const [i, m] of messages.entries()) {
    if (i === throwAt) throw new Error('the Claude Code process exited with code 1');
    yield m;
  }
}

async function drain(iterable) {
  const seen = [];
  for await (const m of iterable) seen.push(m);
  return seen;
}

function reopened(db, id) {
  const store = openStore(db);
  try {
    const s = store.openSession(id);
    return { messages: s.messages(), envelopes: s.envelopes(), tracker: s.tokenTracker(), sdkSessionId: s.sdkSessionId };
  } finally {
    store.close();
  }
}

const blocksOf = (messages, id) => messages.filter((m) => m.type === 'assistant' && m.message.id === id).flatMap((m) => m.message.content);

test('a run is passed through unchanged and restored with its tool pairs, sidechain, tracker and SDK session id', async (t) => {
  const { db, store } = tempStore(t);
  const session = store.createSession();
  const { conversation, result } = typed;
  const seen = await drain(typed.relay(fromClaudeAgentSDK, session, stream(conversation)));
  assert.equal(seen.length, conversation.length);
  seen.forEach((m, i) => assert.equal(m, conversation[i], `message ${i} is the SDK's own object`));
  const id = session.id;
  store.close();

  const { messages, envelopes, tracker, sdkSessionId } = reopened(db, id);
  assert.equal(sdkSessionId, result.session_id, 'the SDK session id to pass back as resume');

  // The main conversation: the Task call's three one-block messages joined into one, its
  // result, the answer. The prompt was not in the stream (no `prompt` option here).
  assert.deepEqual(messages.map((m) => m.role), ['assistant', 'user', 'assistant']);
  assert.deepEqual(messages[0].content, blocksOf(conversation, 'msg_01'));
  assert.equal(messages[0].id, 'msg_01');
  assert.equal(messages[0].stop_reason, 'tool_use');
  assert.deepEqual(messages[1].content, [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text: 'It sets port 8080.' }], is_error: false }]);
  assert.deepEqual(messages[2].content, blocksOf(conversation, 'msg_02'));

  const main = envelopes.filter((e) => !e.isSidechain);
  assert.deepEqual(main[1].toolUseResults, { toolu_task: { status: 'completed', totalDurationMs: 2100, totalTokens: 892 } });
  assert.deepEqual(main[0].context, { cwd: '/work/project' }, 'the init message\'s cwd');
  assert.deepEqual(main[2].context, { cwd: '/work/project', sdkCompactBoundary: { trigger: 'auto', pre_tokens: 150000, post_tokens: 9000 } });
  assert.deepEqual(main[2].message.usage.sdkResult, {
    subtype: 'success', is_error: false, num_turns: 3, total_cost_usd: 0.0421, duration_ms: 5120, duration_api_ms: 4380,
    stop_reason: 'end_turn', usage: result.usage, modelUsage: {},
  });

  // The subagent's conversation, on the sidechain of its Task call.
  const side = envelopes.filter((e) => e.isSidechain);
  assert.deepEqual(side.map((e) => e.message.role), ['user', 'assistant', 'user', 'assistant']);
  assert.ok(side.every((e) => e.parentToolUseId === 'toolu_task'));
  assert.deepEqual(side[1].message.content, blocksOf(conversation, 'msg_sub1'));
  assert.equal(side[2].message.content[0].tool_use_id, 'toolu_read');
  assert.deepEqual(side[3].message.content, blocksOf(conversation, 'msg_sub2'));

  // The tracker is the SDK's own count for the run; the window holds what the last main request sent.
  assert.deepEqual(tracker, {
    inputTokens: 3200, outputTokens: 410, cacheReadInputTokens: 1800, cacheCreationInputTokens: 600, contextTokens: 1150 + 1800,
  });
});

test('partials stream the reply into the session and its complete message is not recorded twice', async (t) => {
  const { db, store } = tempStore(t);
  const session = store.createSession();
  session.restoreTokenTracker({ inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 100 });
  const seen = await drain(fromClaudeAgentSDK(session, stream(typed.partials), { partials: true, prompt: 'Which port?' }));
  assert.equal(seen.length, typed.partials.length);
  const id = session.id;
  store.close();

  const { messages, tracker, envelopes } = reopened(db, id);
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
  assert.deepEqual(messages[0].content, [{ type: 'text', text: 'Which port?' }]);
  assert.deepEqual(messages[1].content, [{ type: 'text', text: 'Port 8080.', citations: null }]);
  assert.equal(messages[1].stop_reason, 'end_turn');
  assert.equal(envelopes[1].status, 'complete');
  assert.deepEqual(tracker, { inputTokens: 600, outputTokens: 16, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 500 });
});

test('without partials the stream events are passed through and not recorded', async (t) => {
  const { store } = tempStore(t);
  const session = store.createSession();
  const seen = await drain(fromClaudeAgentSDK(session, stream(typed.partials)));
  assert.equal(seen.length, typed.partials.length);
  assert.deepEqual(session.messages().map((m) => m.content), [[{ type: 'text', text: 'Port 8080.', citations: null }]]);
});

test('a stream that throws keeps what arrived, marked error, and rethrows', async (t) => {
  const { db, store } = tempStore(t);
  const session = store.createSession();
  // The first of msg_01's three parts arrived, then the SDK's process died.
  await assert.rejects(drain(fromClaudeAgentSDK(session, stream(typed.conversation, { throwAt: 2 }))), /exited with code 1/);
  const id = session.id;
  store.close();
  const { envelopes, sdkSessionId } = reopened(db, id);
  assert.equal(envelopes.length, 1);
  assert.equal(envelopes[0].status, 'error');
  assert.equal(envelopes[0].error, 'the Claude Code process exited with code 1');
  assert.deepEqual(envelopes[0].message.content, blocksOf(typed.conversation, 'msg_01').slice(0, 1));
  assert.equal(sdkSessionId, typed.init.session_id, 'init already named the SDK session, so it can be resumed');
});

test('leaving the loop early completes the message being joined', async (t) => {
  const { store } = tempStore(t);
  const session = store.createSession();
  for await (const m of fromClaudeAgentSDK(session, stream(typed.conversation))) {
    if (m.type === 'assistant' && m.message.content[0].type === 'text') break;
  }
  const [envelope] = session.envelopes();
  assert.equal(envelope.status, 'complete');
  assert.deepEqual(envelope.message.content, blocksOf(typed.conversation, 'msg_01').slice(0, 2));
});

test('bad arguments are TypeErrors and record nothing', (t) => {
  const { store } = tempStore(t);
  const session = store.createSession();
  assert.throws(() => fromClaudeAgentSDK({}, stream([])), TypeError);
  assert.throws(() => fromClaudeAgentSDK(session, [typed.init]), /async iterable/);
  assert.equal(session.envelopes().length, 0);
});

test('a real query() of the SDK, whose model cannot be reached here, is recorded and passed through', { timeout: 180000 }, async (t) => {
  const { query } = await import('@anthropic-ai/claude-agent-sdk');
  const { db, dir, store } = tempStore(t);
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-claude-'));
  t.after(() => fs.rmSync(configDir, { recursive: true, force: true }));
  const session = store.createSession();
  const prompt = 'Say hi';
  // A key that is no key: the SDK's process starts, and its one API call fails (no network
  // here; with one, a 401), so the run ends with the SDK's own error result.
  const env = { ...process.env, CLAUDE_CONFIG_DIR: configDir, ANTHROPIC_API_KEY: 'sk-ant-not-a-key', CLAUDE_CODE_MAX_RETRIES: '0' };
  const seen = [];
  await assert.rejects(async () => {
    for await (const m of fromClaudeAgentSDK(session, query({ prompt, options: { maxTurns: 1, cwd: dir, env, pathToClaudeCodeExecutable } }), { prompt })) seen.push(m);
  }, /error result/);
  const id = session.id;
  store.close();

  const init = seen.find((m) => m.type === 'system' && m.subtype === 'init');
  const reply = seen.find((m) => m.type === 'assistant');
  const result = seen.find((m) => m.type === 'result');
  assert.ok(init && reply && result, `the SDK sent ${seen.map((m) => m.type).join(', ')}`);
  assert.equal(result.is_error, true);

  const { envelopes, sdkSessionId, tracker } = reopened(db, id);
  assert.equal(sdkSessionId, init.session_id);
  assert.deepEqual(envelopes.map((e) => e.message.role), ['user', 'assistant']);
  assert.deepEqual(envelopes[0].message.content, [{ type: 'text', text: prompt }]);
  // The SDK made the reply up for the failed call: recorded as it came, with status 'error'.
  assert.equal(envelopes[1].status, 'error');
  assert.deepEqual(envelopes[1].message.content, reply.message.content);
  assert.equal(envelopes[1].error, `${reply.error}: ${reply.message.content[0].text}`);
  assert.deepEqual(envelopes[1].context, { cwd: init.cwd });
  assert.equal(tracker.inputTokens, result.usage.input_tokens);
});
