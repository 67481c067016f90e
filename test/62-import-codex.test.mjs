// Importing the real Codex CLI rollouts in ../shared/fixtures/real/codex through the addon:
// every line is kept as a record; function calls, their outputs, reasoning (encrypted
// content included) and images are all in the store; the conversation alternates as the
// APIs want; the token tracker adds up to the rollout's own totals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { tempStore } from './helpers/common.mjs';
import { CODEX, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

const files = jsonlFiles(CODEX);

/** sourceCensus counts a rollout's items. */
function sourceCensus(records) {
  const n = { records: records.length, tool_use: 0, tool_result: 0, reasoning: 0, encrypted: 0, image: 0, text: 0 };
  for (const { value: r } of records) {
    if (r.type !== 'response_item') continue;
    const p = r.payload;
    if (p.type === 'function_call') n.tool_use++;
    if (p.type === 'function_call_output') n.tool_result++;
    if (p.type === 'reasoning') n.reasoning++;
    if (p.type === 'reasoning' && p.encrypted_content) n.encrypted++;
    if (p.type === 'message' && (p.role === 'user' || p.role === 'assistant')) {
      for (const c of p.content) {
        if (c.type === 'input_image') n.image++;
        if (c.type === 'input_text' || c.type === 'output_text') n.text++;
      }
    }
  }
  return n;
}

/** storeCensus counts the same in the stored records. */
function storeCensus(envelopes) {
  const n = { records: envelopes.length, tool_use: 0, tool_result: 0, reasoning: 0, encrypted: 0, image: 0, text: 0 };
  for (const e of envelopes) {
    for (const b of e.message?.content ?? []) {
      if (b.type === 'tool_use') n.tool_use++;
      if (b.type === 'tool_result') n.tool_result++;
      if (b.type === 'reasoning') n.reasoning++;
      if (b.type === 'reasoning' && b.encrypted_content) n.encrypted++;
      if (b.type === 'image') n.image++;
      if (b.type === 'text') n.text++;
    }
  }
  return n;
}

test('the real Codex rollouts are there', () => {
  assert.ok(files.length >= 2, `found ${files.length} rollouts in ${CODEX}`);
});

for (const file of files) {
  const name = path.basename(file).slice(0, 80);

  test(`census matches: ${name}`, async (t) => {
    const { store } = tempStore(t);
    const { records, bad } = readRecords(file);
    const result = await store.import(file, { format: 'codex' });
    assert.deepEqual(result.skipped, bad.map((line) => ({ file, line, reason: 'not a rollout record (a JSON object with a "type")' })));
    const meta = records.find((r) => r.value.type === 'session_meta').value.payload;
    assert.deepEqual(result.sessions, [meta.id]);
    const s = store.openSession(meta.id);
    const env = s.envelopes();
    const want = sourceCensus(records);
    assert.deepEqual(storeCensus(env), want);
    assert.ok(want.tool_use > 0 && want.encrypted > 0);
    assert.ok(env.every((e) => e.source.format === 'codex'));
    assert.deepEqual(env.map((e) => e.timestamp), records.map((r) => new Date(r.value.timestamp).toISOString()));
    assert.ok(env.every((e, i) => e.parentUuid === (i === 0 ? null : env[i - 1].uuid)), 'one chain, in file order');
    assert.equal(env[0].context.cwd, meta.cwd);
    assert.equal(env[0].context.gitBranch, meta.git.branch);

    const [info] = store.listSessions();
    assert.equal(info.projectPath, meta.cwd);
    assert.equal(info.provider, 'openai');
    assert.equal(info.model, records.findLast((r) => r.value.type === 'turn_context').value.payload.model);
    assert.ok(info.title.length > 0 && !info.title.startsWith('<'), info.title);
  });

  test(`one model response is one message, its calls answered by the next: ${name}`, async (t) => {
    const { store } = tempStore(t);
    const { sessions: [id] } = await store.import(file, { format: 'codex' });
    const messages = store.openSession(id).messages();
    assert.equal(messages[0].role, 'user');
    for (const [i, m] of messages.entries()) {
      if (m.role !== 'assistant') continue;
      assert.equal(messages[i - 1].role, 'user', `message ${i} follows another model message`);
      const calls = m.content.filter((b) => b.type === 'tool_use');
      if (calls.length === 0) continue;
      const results = (messages[i + 1]?.content ?? []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
      assert.deepEqual(results, calls.map((b) => b.id), `the calls of message ${i} and the results after it`);
      assert.ok(calls.every((b) => typeof b.input === 'object' && b.input !== null && !b.input_error));
    }
  });

  test(`the token tracker adds up to the rollout's totals: ${name}`, async (t) => {
    const { store } = tempStore(t);
    const { records } = readRecords(file);
    const { sessions: [id] } = await store.import(file, { format: 'codex' });
    const total = records.findLast((r) => r.value.payload?.type === 'token_count' && r.value.payload.info).value.payload.info.total_token_usage;
    const tracker = store.openSession(id).tokenTracker();
    assert.equal(tracker.inputTokens + tracker.cacheReadInputTokens, total.input_tokens);
    assert.equal(tracker.cacheReadInputTokens, total.cached_input_tokens);
    assert.equal(tracker.outputTokens, total.output_tokens);
  });
}
