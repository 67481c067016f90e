// session.buildContext: for sessions of 10, 1,000 and 20,000 messages, at budgets from a
// large cloud model's window down to a tiny one, every context fits its budget, is valid
// for Anthropic and OpenAI, keeps tool calls with their results, and the strategy steps
// down as the budget shrinks. Nothing stored changes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sessionError } from './helpers/common.mjs';
import { conversation, sessionWith, checkContext, unanswered } from './helpers/context.mjs';

const WINDOWS = [1_000_000, 200_000, 64_000, 32_000, 8_000, 3_000, 800];
const ORDER = ['full-history', 'pruned-tools', 'recent-plus-summary', 'recent-turns', 'minimal-state', 'fallback'];

for (const n of [10, 1000, 20000]) {
  for (const interrupted of [false, true]) {
    test(`${n} messages${interrupted ? ' ending in an interrupted tool call' : ''}: fits, valid, steps down`, { timeout: 120_000 }, (t) => {
      const { store } = tempStore(t);
      const messages = conversation(n, { interrupted });
      const s = sessionWith(store, messages);
      const ids = unanswered(messages);
      for (const format of ['anthropic', 'openai']) {
        let rank = -1;
        for (const contextWindow of WINDOWS) {
          const ctx = s.buildContext({ contextWindow, format, systemPrompt: 'You are a coding agent.' });
          checkContext(ctx, { format, interrupted: ids });
          assert.equal(ctx.originalMessageCount, n);
          const r = ORDER.indexOf(ctx.strategy);
          assert.ok(r >= rank, `window ${contextWindow}: ${ctx.strategy} after a later strategy at a larger window`);
          rank = r;
          if (interrupted && ctx.strategy !== 'fallback') endsWithInterruptedResult(ctx, format);
        }
      }
      const stored = s.messages();
      assert.equal(stored.length, n);
      assert.deepEqual(stored.at(-1), { role: 'assistant', content: messages.at(-1).content });
    });
  }
}

/** endsWithInterruptedResult: the call with no result got a synthetic is_error one. */
function endsWithInterruptedResult(ctx, format) {
  const last = ctx.messages.at(-1);
  if (format === 'openai') {
    assert.equal(last.role, 'tool');
    assert.equal(last.tool_call_id, 'toolu_interrupted');
    assert.match(last.content, /^Error: The tool call was interrupted/);
    return;
  }
  assert.equal(last.role, 'user');
  assert.equal(last.content[0].tool_use_id, 'toolu_interrupted');
  assert.equal(last.content[0].is_error, true);
  assert.match(last.content[0].content, /interrupted/);
}

test('full history is the stored conversation as the API takes it', (t) => {
  const { store } = tempStore(t);
  const messages = conversation(40);
  const s = sessionWith(store, messages);
  const ctx = s.buildContext({ contextWindow: 200_000 });
  assert.equal(ctx.strategy, 'full-history');
  assert.deepEqual(ctx.messages, s.messages().map((m) => ({ role: m.role, content: m.content })));
  assert.equal(ctx.includedMessageCount, 40);
  assert.equal(ctx.summarizedMessageCount, 0);
});

test('pruned tool outputs keep recent turns verbatim and shorten older ones by kind', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(400));
  const ctx = s.buildContext({ contextWindow: 200_000, strategy: 'pruned-tools', unprunedTurns: 2 });
  assert.equal(ctx.strategy, 'pruned-tools');
  checkContext(ctx);
  const results = ctx.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
  assert.equal(results.length, 100);
  assert.match(results[1].content, /^\[Command output: \d+ lines, \d+ chars\]\n0000\t/);
  assert.match(results.find((r, i) => i % 4 === 0 && r.content.startsWith('[File:')).content, /\[\.\.\. \d+ lines omitted \.\.\.\]/);
  assert.equal(results.at(-1).content, s.messages().at(-2).content[0].content, 'the last turn is verbatim');
  const thinking = ctx.messages.flatMap((m) => m.content).filter((b) => b.type === 'thinking');
  assert.equal(thinking.length, 2, 'thinking is dropped from all but the recent turns');
  assert.ok(ctx.debug.prunedMessageCount > 0);
});

test('the budget is the window less system prompt, tools and reserve', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(10));
  const tools = [{ name: 'Read', description: 'Read a file from disk', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }];
  const plain = s.buildContext({ contextWindow: 10_000 });
  assert.equal(plain.budget.reserveForResponse, 2_500);
  assert.equal(plain.tokenBudget, 7_500);
  const full = s.buildContext({ contextWindow: 10_000, systemPrompt: 'You are a careful coding agent.', tools, reserve: 0.1 });
  const b = full.budget;
  assert.ok(b.systemPromptTokens > 5 && b.toolDefinitionTokens > 10);
  assert.equal(b.reserveForResponse, 1_000);
  assert.equal(full.tokenBudget, 10_000 - b.systemPromptTokens - b.toolDefinitionTokens - 1_000);
  assert.equal(s.buildContext({ contextWindow: 10_000, reserveTokens: 4_096 }).tokenBudget, 10_000 - 4_096);
  assert.ok(b.utilizationPercent > 0 && b.conversationTokens > 0);
});

test('bad options: TypeError for wrong types, INVALID_ARGUMENT for wrong values, CONTEXT_BUDGET_TOO_SMALL', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(10));
  assert.throws(() => s.buildContext(), TypeError);
  assert.throws(() => s.buildContext({ contextWindow: '8000' }), TypeError);
  assert.throws(() => s.buildContext({ contextWindow: 8000, format: 7 }), TypeError);
  assert.throws(() => s.buildContext({ contextWindow: 0 }), sessionError('INVALID_ARGUMENT', /contextWindow/));
  assert.throws(() => s.buildContext({ contextWindow: 8000, format: 'gemini' }), sessionError('INVALID_ARGUMENT', /format/));
  assert.throws(() => s.buildContext({ contextWindow: 8000, reserve: 1.5 }), sessionError('INVALID_ARGUMENT', /reserve/));
  assert.throws(() => s.buildContext({ contextWindow: 8000, strategy: 'all' }), sessionError('INVALID_ARGUMENT', /minimal-state/));
  assert.throws(() => s.buildContext({ contextWindow: 100, systemPrompt: 'x '.repeat(200) }), sessionError('CONTEXT_BUDGET_TOO_SMALL'));
  assert.equal(s.messages().length, 10);
});

test('buildContextAsync builds off the JS thread the same context', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000, { interrupted: true }));
  const opts = { contextWindow: 32_000, format: 'openai' };
  const [a, b] = await Promise.all([s.buildContextAsync(opts), s.buildContextAsync(opts)]);
  const sync = s.buildContext(opts);
  for (const ctx of [a, b]) {
    checkContext(ctx, { format: 'openai', interrupted: ['toolu_interrupted'] });
    assert.deepEqual(ctx.messages, sync.messages);
    assert.equal(ctx.strategy, sync.strategy);
  }
});

test('debugContext reports what was sent, as data and as text', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(400, { interrupted: true }));
  assert.equal(s.debugContext(), null);
  const ctx = s.buildContext({ contextWindow: 8_000, systemPrompt: 'sys' });
  const r = s.debugContext();
  assert.deepEqual(r, ctx.debug);
  assert.equal(r.strategy, ctx.strategy);
  assert.equal(r.tokensUsed, ctx.tokensUsed);
  assert.equal(r.sentMessageCount, ctx.messages.length);
  assert.deepEqual(r.attempts.map((a) => a.strategy), ORDER.slice(0, r.attempts.length));
  assert.equal(r.attempts.at(-1).outcome, 'chosen');
  assert.ok(r.repairs.some((x) => x.kind === 'synthetic_result' && x.toolUseId === 'toolu_interrupted'));
  assert.match(r.text, new RegExp(`^Context for anthropic: strategy ${ctx.strategy}\\n`));
  assert.match(r.text, /Budget: 8,000 window - \d+ system prompt - 0 tools - 2,000 reserve = [\d,]+ tokens/);
  assert.match(r.text, /Messages: 400 stored, \d+ sent/);
  assert.match(r.text, /Repairs: 1 synthetic result/);
  assert.match(r.text, /compaction is due/);
});

test('after a rewind the context is the branch at the head, not what the rewind left', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(40));
  const envelopes = s.envelopes();
  await s.rewind(envelopes[23].uuid); // the end of turn 5
  s.appendUserMessage('Try another way');
  const ctx = s.buildContext({ contextWindow: 200_000 });
  checkContext(ctx);
  assert.deepEqual(ctx.messages, s.messages().map((m) => ({ role: m.role, content: m.content })));
  assert.equal(ctx.messages.length, 25);
  assert.ok(!JSON.stringify(ctx.messages).includes('Turn 6:'));
  await s.rewind(envelopes[39].uuid);
  assert.equal(s.buildContext({ contextWindow: 200_000 }).messages.length, 40);
});
