// Codex rollouts with freeform tool calls (apply_patch), local shell calls, web searches
// and outputs given as content items: every call and result is in messages() after an
// import, and an export gives them back. The rollout is written here per codex-rs's
// protocol types (the real rollouts in ../shared/fixtures/real/codex have no apply_patch
// calls); the real ones are checked for calls and results too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir, tempStore } from './helpers/common.mjs';
import { CODEX, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

const SESSION = '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const PATCH = '*** Begin Patch\n*** Update File: src/a.go\n@@\n-\tx := "<old>"\n+\tx := "<new> é\u2028"\n*** End Patch\n';
const PATCH_OUT = JSON.stringify({ output: 'Success. Updated the following files:\nM src/a.go\n', metadata: { exit_code: 0, duration_seconds: 0.1 } });

/** rollout returns the lines of a rollout in which Codex edits a file with apply_patch. */
function rollout() {
  let t = 0;
  const line = (type, payload) => JSON.stringify({ timestamp: new Date(Date.UTC(2025, 9, 1, 10, 0, t++)).toISOString(), type, payload });
  const item = (payload) => line('response_item', payload);
  return [
    line('session_meta', { id: SESSION, cwd: '/repo' }),
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'rename x and build' }] }),
    item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'gAAAA' }),
    item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'go rename' } }),
    item({ type: 'custom_tool_call', status: 'completed', call_id: 'call_patch', name: 'apply_patch', input: PATCH }),
    line('event_msg', { type: 'patch_apply_end', call_id: 'call_patch', success: true }),
    item({ type: 'custom_tool_call_output', call_id: 'call_patch', output: PATCH_OUT }),
    item({ type: 'local_shell_call', call_id: 'call_build', status: 'completed', action: { type: 'exec', command: ['go', 'build'] } }),
    item({ type: 'function_call_output', call_id: 'call_build', output: [{ type: 'input_text', text: 'built' }] }),
    item({ type: 'function_call', name: 'shell', arguments: '{"command":["go","test"]}', call_id: 'call_test' }),
    item({ type: 'function_call_output', call_id: 'call_test', output: 'ok' }),
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Renamed and built.' }] }),
  ].join('\n') + '\n';
}

/** toolBlocks returns the tool_use and tool_result blocks of messages, in order. */
function toolBlocks(messages) {
  return messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_use' || b.type === 'tool_result');
}

test('a rollout with apply_patch edits restores every call and result into messages()', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, `rollout-2025-10-01T10-00-00-${SESSION}.jsonl`);
  fs.writeFileSync(file, rollout());
  const { store } = tempStore(t);
  const result = await store.import(file);
  assert.deepEqual(result.skipped, []);
  const messages = store.openSession(SESSION).messages();
  const tools = toolBlocks(messages);
  assert.deepEqual(tools.map((b) => [b.type, b.id ?? b.tool_use_id]), [
    ['tool_use', 'call_patch'], ['tool_result', 'call_patch'], ['tool_use', 'call_build'],
    ['tool_result', 'call_build'], ['tool_use', 'call_test'], ['tool_result', 'call_test'],
  ]);
  assert.deepEqual(tools[0], { type: 'tool_use', id: 'call_patch', name: 'apply_patch', input: { input: PATCH }, freeform: true });
  assert.equal(tools[1].content, PATCH_OUT);
  assert.deepEqual(tools[2].input, { type: 'exec', command: ['go', 'build'] });
  assert.deepEqual(tools[3].content, [{ type: 'text', text: 'built' }]);
  const search = messages.flatMap((m) => m.content).find((b) => b.type === 'web_search_call');
  assert.deepEqual(search, { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'go rename' } });
  const execution = store.openSession(SESSION).envelopes().find((e) => e.toolUseResults?.call_patch)?.toolUseResults.call_patch;
  assert.equal(execution?.exitCode, 0, 'the patch\'s exit code is its execution record');

  // A context for the Messages API leaves the Responses items out and keeps the calls valid.
  const ctx = store.openSession(SESSION).buildContext({ contextWindow: 100000, format: 'anthropic' });
  const ctxBlocks = ctx.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
  assert.ok(!ctxBlocks.some((b) => b.type === 'web_search_call' || b.type === 'reasoning'));
  assert.deepEqual(ctxBlocks.find((b) => b.id === 'call_patch'), { type: 'tool_use', id: 'call_patch', name: 'apply_patch', input: { input: PATCH } });
});

test('an export gives the freeform calls back, and its import restores the same messages', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, `rollout-2025-10-01T10-00-00-${SESSION}.jsonl`);
  fs.writeFileSync(file, rollout());
  const { store } = tempStore(t);
  await store.import(file);
  const before = store.openSession(SESSION).messages();

  const archive = path.join(dir, 'backup.jsonl');
  await store.export(SESSION, { format: 'jsonl', path: archive });
  const archived = fs.readFileSync(archive, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const call = archived.flatMap((e) => e.message?.content ?? []).find((b) => b.id === 'call_patch');
  assert.equal(call.input.input, PATCH, 'the patch text is in the archive verbatim');
  const { store: other } = tempStore(t, 'other.db');
  await other.import(archive);
  assert.deepEqual(other.openSession(SESSION).messages(), before);

  const cc = await store.export(SESSION, { format: 'claude-code' });
  const calls = cc.trim().split('\n').map((l) => JSON.parse(l)).flatMap((r) => (Array.isArray(r.message?.content) ? r.message.content : []));
  assert.equal(calls.find((b) => b.id === 'call_patch')?.input.input, PATCH);
  assert.equal(calls.find((b) => b.tool_use_id === 'call_patch')?.content, PATCH_OUT);
});

test('every call and result of the real rollouts is in messages()', { skip: jsonlFiles(CODEX).length === 0 && 'no real Codex rollouts beside the checkout' }, async (t) => {
  for (const file of jsonlFiles(CODEX)) {
    const { store } = tempStore(t, `${path.basename(file)}.db`);
    const { sessions } = await store.import(file);
    const items = readRecords(file).records.filter(({ value: r }) => r.type === 'response_item').map(({ value: r }) => r.payload);
    const calls = items.filter((p) => /_call$/.test(p.type) && p.type !== 'web_search_call').map((p) => p.call_id);
    const results = items.filter((p) => /_call_output$/.test(p.type)).map((p) => p.call_id);
    const tools = toolBlocks(store.openSession(sessions[0]).messages());
    assert.deepEqual(tools.filter((b) => b.type === 'tool_use').map((b) => b.id), calls, path.basename(file));
    assert.deepEqual(tools.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id), results, path.basename(file));
  }
});
