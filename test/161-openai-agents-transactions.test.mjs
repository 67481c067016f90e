// SessionkeepAgentsSession's optional capabilities of the OpenAI Agents SDK:
// applyHistoryTransaction (atomic, idempotent by operation id), applyHistoryMutations and
// runCompaction, against the SDK's own MemorySession; then through the real runner, whose
// output guardrail makes it persist through transactions, including a process SIGKILLed in
// the middle of one and the run retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { helper, openStore, runNode, tempStore } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const { SessionkeepAgentsSession } = require('sessionkeep/openai-agents');
const { MemorySession } = require('@openai/agents');
const CHILD = helper('agents-blocked-child.mjs');

const user = (text) => ({ type: 'message', role: 'user', content: text });
const call = (id) => ({ type: 'function_call', callId: id, name: 'lookup', arguments: '{"key":"k"}', status: 'completed' });
const result = (id, text) => ({ type: 'function_call_result', callId: id, name: 'lookup', status: 'completed', output: { type: 'text', text } });
const reply = (text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

/** both applies the same steps to sessionkeep's session and the SDK's MemorySession. */
async function both(ours, memory, step) {
  const outcomes = [];
  for (const s of [ours, memory]) {
    try {
      await step(s);
      outcomes.push('ok');
    } catch (err) {
      outcomes.push('failed');
      if (s === ours) outcomes.push(err.code);
    }
  }
  assert.deepEqual(await ours.getItems(), await memory.getItems());
  return outcomes;
}

test('transactions, mutations and a compaction change the history as the SDK\'s MemorySession does, once per operation id', async (t) => {
  const { db, store } = tempStore(t);
  const ours = new SessionkeepAgentsSession(store.createSession());
  const memory = new MemorySession();
  const append = { type: 'append_items', items: [user('look k up'), call('c1'), result('c1', 'v1')] };

  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-1', transaction: append })), ['ok', 'ok']);
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-1', transaction: append })), ['ok', 'ok'], 'a retry applies nothing');
  const other = { type: 'append_items', items: [reply('other')] };
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-1', transaction: other })), ['failed', 'HISTORY_CONFLICT', 'failed']);

  const wrongSuffix = { type: 'replace_suffix', expectedSuffix: [result('c1', 'not v1')], replacement: [reply('x')] };
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-2', transaction: wrongSuffix })), ['failed', 'HISTORY_CONFLICT', 'failed']);
  const replace = { type: 'replace_suffix', expectedSuffix: [call('c1'), result('c1', 'v1')], replacement: [call('c2'), result('c2', 'v2'), reply('v2 it is')] };
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-3', transaction: replace })), ['ok', 'ok']);
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-3', transaction: replace })), ['ok', 'ok']);

  const mutation = { type: 'replace_function_call', callId: 'c2', replacement: { ...call('c2'), arguments: '{"key":"k2"}' } };
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryMutations({ mutations: [mutation] })), ['ok', 'ok']);
  assert.deepEqual(await both(ours, memory, (s) => s.addItems([user('thanks')])), ['ok', 'ok']);
  assert.deepEqual(await both(ours, memory, (s) => s.popItem()), ['ok', 'ok']);
  const empty = { type: 'replace_suffix', expectedSuffix: [reply('v2 it is')], replacement: [] };
  assert.deepEqual(await both(ours, memory, (s) => s.applyHistoryTransaction({ operationId: 'op-4', transaction: empty })), ['ok', 'ok']);

  // Another process reads the same history; nothing was deleted.
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = new SessionkeepAgentsSession(again.openSession(ours.session.id));
  assert.deepEqual(await reopened.getItems(), await memory.getItems());
  const stored = again.openSession(ours.session.id).envelopes().flatMap((e) => e.message?.content ?? []).map((b) => b.openai_item).filter(Boolean);
  for (const item of [result('c1', 'v1'), reply('v2 it is'), call('c2'), user('thanks')]) {
    assert.ok(stored.some((s) => JSON.stringify(s) === JSON.stringify(item)), `${JSON.stringify(item)} is still stored`);
  }
  await assert.rejects(reopened.applyHistoryTransaction({ operationId: 'op-3', transaction: append }), { code: 'HISTORY_CONFLICT' });

  // The runner's Responses compaction: the history becomes the compaction item and its suffix, in one change.
  const compacted = [{ type: 'compaction', encrypted_content: 'gAAA-summary' }, ...(await memory.getItems()).slice(-1)];
  await ours.replaceHistoryWithCompaction(compacted);
  assert.deepEqual(await ours.getItems(), compacted);
  await memory.clearSession();
  await memory.addItems(compacted);
  assert.ok(again.openSession(ours.session.id).envelopes().some((e) => e.message?.content.some((b) => JSON.stringify(b.openai_item) === JSON.stringify(user('look k up')))), 'what it replaced is still stored');

  await assert.rejects(ours.applyHistoryTransaction({ operationId: '', transaction: append }), { code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(ours.applyHistoryTransaction({ operationId: 'x', transaction: { type: 'drop_all' } }), { code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(ours.applyHistoryTransaction({ operationId: 'x', transaction: { type: 'append_items', items: [{ n: 1n }] } }), { code: 'INVALID_ARGUMENT' });
  assert.deepEqual(await ours.getItems(), await memory.getItems());
});

test('runCompaction: a summary row by the summarizer given, nothing deleted, { usage }; null when nothing is due', async (t) => {
  const { store } = tempStore(t);
  const summaries = [];
  const summarize = async (messages) => {
    summaries.push(messages.length);
    return 'They looked keys up.';
  };
  assert.equal(await new SessionkeepAgentsSession(store.createSession()).runCompaction(), null, 'no summarizer: nothing due');
  const session = new SessionkeepAgentsSession(store.createSession(), { summarize, keepRecentTurns: 1 });
  assert.equal(await session.runCompaction(), null, 'an empty session: nothing due');
  for (let i = 0; i < 4; i++) await session.addItems([user(`question ${i} ${'words '.repeat(200)}`), reply(`answer ${i} ${'more '.repeat(200)}`)]);
  const items = await session.getItems();
  const done = await session.runCompaction({ responseId: 'resp_1' });
  assert.ok(done, 'compacted');
  assert.equal(summaries.length, 1);
  assert.ok(done.usage.inputTokens > 0 && done.usage.totalTokens === done.usage.inputTokens + done.usage.outputTokens);
  assert.deepEqual(await session.getItems(), items, 'nothing deleted');
  const context = session.session.buildContext({ contextWindow: 200000, strategy: 'recent-plus-summary' });
  assert.ok(JSON.stringify(context.messages).includes('They looked keys up.'), 'the summary is a row the context uses');
  assert.equal(await session.runCompaction(), null, 'nothing new to compact');
});

async function blockedRun(db, sessionId, kill) {
  const r = await runNode(CHILD, [db, sessionId, 'What is the secret?', ...(kill ? ['kill'] : [])], { timeoutMs: 60000 });
  return r;
}

test('the runner persists a blocked turn through a transaction; a process killed in it and the run retried leave no duplicates', async (t) => {
  const { db, store } = tempStore(t);
  const clean = store.createSession();
  const killed = store.createSession();
  await store.flush();

  const expected = JSON.parse((await blockedRun(db, 'memory')).stdout);
  assert.equal(expected.blocked, true);
  assert.ok(expected.items.length >= 3, `the runner kept the turn's items: ${JSON.stringify(expected.items)}`);

  const ours = await blockedRun(db, clean.id);
  assert.equal(ours.code, 0, ours.stderr);
  assert.deepEqual(JSON.parse(ours.stdout), expected, 'the same items as MemorySession');

  const dead = await blockedRun(db, killed.id, true);
  assert.equal(dead.signal, 'SIGKILL', `the child died in the transaction: ${dead.stderr}`);
  const reader = openStore(db);
  t.after(() => reader.close());
  const partial = reader.openSession(killed.id);
  const written = partial.envelopes().flatMap((e) => e.message?.content ?? []).filter((b) => b.openai_op);
  assert.ok(written.length > 0 && written.every((b) => b.openai_op_done === undefined), 'part of the transaction reached the disk, not its end');
  assert.deepEqual(await new SessionkeepAgentsSession(partial).getItems(), [], 'the unfinished transaction changed nothing');
  partial.close();

  const retried = await blockedRun(db, killed.id);
  assert.equal(retried.code, 0, retried.stderr);
  assert.deepEqual(JSON.parse(retried.stdout), expected, 'the retry leaves each item once');
});
