// session.compact: a summary and a boundary are written as rows, nothing is deleted, later
// builds start at the boundary, each range is summarized once (also across reopening the
// store), and compaction after a restore cuts at turn boundaries (seed 000's scenario).
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openStore, tempDir, tempStore, sessionError } from './helpers/common.mjs';
import { conversation, sessionWith, checkContext, recordingSummarizer } from './helpers/context.mjs';

/** streamTurn records one turn as an agent streams it: prompt, tool call, result, answer. */
function streamTurn(s, turn) {
  s.appendUserMessage(`Turn ${turn + 1}: what does config_${turn}.json set?`);
  const id = `toolu_cfg_${turn}`;
  for (const chunk of [
    { type: 'message_start', id: `msg_${turn}_a`, model: 'claude-sonnet-4-5', provider: 'claude' },
    { type: 'thinking', thinking: `Read config_${turn}.json first.` },
    { type: 'signature', signature: `sig_${turn}` },
    { type: 'text', text: 'Let me read it.' },
    { type: 'tool_use', id, name: 'read_file', input: { path: `/etc/config_${turn}.json` } },
    { type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1000 + turn * 300, output_tokens: 60, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
    { type: 'tool_result', toolUseId: id, content: JSON.stringify({ port: 8000 + turn, host: 'localhost', debug: turn % 2 === 0 }) },
    { type: 'message_start', id: `msg_${turn}_b`, model: 'claude-sonnet-4-5', provider: 'claude' },
    { type: 'text', text: `config_${turn}.json sets port ${8000 + turn}.` },
    { type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1100 + turn * 300, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
  ]) s.ingest(chunk);
}

test("seed 000: 50 turns, saved, reopened, compacted: turns 41-50 verbatim, turns 1-40 summarized at their boundary", async (t) => {
  const db = path.join(tempDir(t), 'seed000.db');
  let store = openStore(db);
  const s = store.createSession({ provider: 'claude', contextWindow: 200_000 });
  for (let turn = 0; turn < 50; turn++) streamTurn(s, turn);
  const before = s.messages();
  const id = s.id;
  await store.flush();
  store.close();

  store = openStore(db);
  t.after(() => store.close());
  const r = store.openSession(id);
  const turns = r.turns();
  assert.equal(turns.length, 50);
  assert.ok(r.tokenTracker().contextTokens > 0, 'the token tracker is restored, not reset');
  const z = recordingSummarizer();
  const result = await r.compact({ summarize: z.summarize, keepRecentTurns: 10 });
  assert.equal(result.compacted, true);
  assert.equal(result.plan.cutSeq, turns[40].startIndex);
  assert.equal(result.boundary.boundarySeq, turns[40].startIndex);
  assert.equal(z.calls.length, 1);
  const given = z.calls[0].messages;
  assert.match(given[0].content[0].text, /^Turn 1:/);
  assert.equal(given.at(-1).content[0].text, 'config_39.json sets port 8039.');
  assert.ok(z.calls[0].targetTokens > 0);

  const ctx = r.buildContext({ contextWindow: 200_000 });
  checkContext(ctx);
  assert.equal(ctx.strategy, 'full-history');
  assert.equal(ctx.summarizedMessageCount, turns[40].startIndex);
  const kept = before.slice(turns[40].startIndex).map((m) => ({ role: m.role, content: m.content }));
  assert.match(ctx.messages[0].content[0].text, /^Summary of the earlier conversation/);
  assert.deepEqual(ctx.messages[0].content.slice(1), kept[0].content, "turn 41's prompt follows the summary");
  assert.deepEqual(ctx.messages.slice(1), kept.slice(1), 'turns 41-50 are verbatim');
  assert.deepEqual(r.messages(), before, 'nothing is deleted or rewritten');
});

test('a summary is requested once per range, and reused after reopening the store', async (t) => {
  const db = path.join(tempDir(t), 'once.db');
  let store = openStore(db);
  const s = sessionWith(store, conversation(600));
  const id = s.id;
  const z = recordingSummarizer();
  const first = await s.compact({ summarize: z.summarize });
  assert.ok(first.summarizerCalls >= 1);
  assert.equal(z.calls.length, first.summarizerCalls);
  const again = await s.compact({ summarize: z.summarize });
  assert.equal(again.compacted, false);
  assert.match(again.plan.reason, /no turn before the last 3/);
  store.close();

  store = openStore(db);
  t.after(() => store.close());
  const r = store.openSession(id);
  const plan = await r.compact({ dryRun: true, keepRecentTurns: 3 });
  assert.equal(plan.compacted, false);
  const ctx = await r.buildContextAsync({ contextWindow: 64_000, summarize: z.summarize });
  checkContext(ctx);
  assert.equal(ctx.debug.boundary.boundarySeq, first.boundary.boundarySeq);
  assert.equal(z.calls.length, first.summarizerCalls, 'the summarizer is not called again after reopening');
});

test('a new compaction extends the previous summary with the turns after it', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(200));
  const z = recordingSummarizer();
  await s.compact({ summarize: z.summarize, keepRecentTurns: 5 });
  for (const m of conversation(40).slice(0, 40)) {
    if (m.role === 'user' && typeof m.content === 'string') s.appendUserMessage(m.content);
  }
  const second = await s.compact({ summarize: z.summarize, keepRecentTurns: 5 });
  assert.equal(second.compacted, true);
  assert.equal(z.calls.length, 2);
  assert.match(z.calls[1].messages[0].content[0].text, /^Summary of the earlier conversation[^]*Summary of \d+ messages/);
  checkContext(s.buildContext({ contextWindow: 32_000 }));
});

test('dryRun says what would happen and calls and writes nothing', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(100));
  const before = s.buildContext({ contextWindow: 200_000 });
  const dry = await s.compact({ dryRun: true, keepRecentTurns: 2 });
  assert.deepEqual(Object.keys(dry).sort(), ['compacted', 'dryRun', 'plan', 'summarizerCalls']);
  assert.equal(dry.dryRun, true);
  assert.equal(dry.compacted, false);
  assert.equal(dry.plan.compactable, true);
  assert.equal(dry.plan.cutSeq, 92);
  assert.equal(dry.plan.summarizedMessageCount, 92);
  assert.equal(dry.plan.keptMessageCount, 8);
  assert.equal(dry.plan.summaryCached, false);
  assert.ok(dry.plan.tokensKept < dry.plan.tokensBefore);
  assert.deepEqual(s.buildContext({ contextWindow: 200_000 }).messages, before.messages);
});

test('concurrent compactions of one session share one summarizer call', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(300));
  const z = recordingSummarizer();
  const slow = async (m, n) => { await new Promise((r) => setTimeout(r, 50)); return z.summarize(m, n); };
  const [a, b] = await Promise.all([s.compact({ summarize: slow }), s.compact({ summarize: slow })]);
  assert.equal(z.calls.length, 1);
  assert.equal(a.summarizerCalls + b.summarizerCalls, 1);
  checkContext(s.buildContext({ contextWindow: 32_000 }));
});

test('a summarizer that fails or returns no text stores nothing; wrong arguments are TypeErrors', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(100));
  await assert.rejects(s.compact({ summarize: async () => '' }), sessionError('INVALID_ARGUMENT', /non-empty string/));
  await assert.rejects(s.compact({ summarize: async () => { throw new Error('model overloaded'); } }), /model overloaded/);
  await assert.rejects(s.compact({}), TypeError);
  await assert.rejects(s.compact(null), TypeError);
  const z = recordingSummarizer();
  const ok = await s.compact({ summarize: z.summarize });
  assert.equal(ok.compacted, true);
  assert.equal(z.calls.length, 1, 'the failed attempts left nothing cached');
  const few = sessionWith(store, conversation(8));
  const none = await few.compact({ summarize: z.summarize });
  assert.equal(none.compacted, false);
  assert.match(none.plan.reason, /has 2 turn\(s\) and the last 3 are kept/);
});
