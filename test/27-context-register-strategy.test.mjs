// registerStrategy: a strategy from JavaScript is tried in priority order among the built-in
// ones, its messages measured, repaired and validated for the format like theirs; chosen
// when it fits, skipped when its minTokens is above the budget or its result is over it;
// a build() that throws or returns something unusable fails the build with STRATEGY_FAILED.
import test from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sessionError, sk } from './helpers/common.mjs';
import { conversation, sessionWith, checkContext } from './helpers/context.mjs';

/** registered registers a strategy for one test, counting its build() calls. */
function registered(t, def) {
  const calls = [];
  const off = sk.registerStrategy({ ...def, build: (input) => { calls.push(input); return def.build(input); } });
  t.after(off);
  return calls;
}

const lastTen = ({ session }) => session.messages().slice(-10);

test('a registered strategy that fits is chosen in its place among the built-in ones', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  const calls = registered(t, { name: 'last-ten', priority: 3.2, minTokens: 500, build: lastTen });
  for (const format of ['anthropic', 'openai']) {
    const ctx = s.buildContext({ contextWindow: 64_000, format });
    checkContext(ctx, { format });
    assert.equal(ctx.strategy, 'last-ten');
    assert.deepEqual(ctx.debug.attempts.map((a) => [a.strategy, a.outcome]), [
      ['full-history', 'does not fit'], ['pruned-tools', 'does not fit'], ['recent-plus-summary', 'no cached summary'], ['last-ten', 'chosen']]);
    assert.equal(ctx.debug.attempts.at(-1).tokensUsed, ctx.tokensUsed);
    assert.deepEqual(s.debugContext(), ctx.debug, 'debugContext reports the whole build');
    assert.match(ctx.debug.text, /^Context for \w+: strategy last-ten\n  skipped full-history: does not fit \(needs [\d,]+ tokens\)/);
  }
  const input = calls[0];
  assert.equal(input.session, s);
  assert.equal(input.format, 'anthropic');
  assert.equal(input.tokenBudget, 48_000);
  assert.equal(input.budget.availableTokens, 48_000);
  assert.equal(input.options.contextWindow, 64_000);
  // countTokens measures as the builder does: the ten messages, before repairs.
  const ten = s.messages().slice(-10);
  assert.ok(input.countTokens(ten) > 0);
  assert.equal(input.countTokens(ten), input.countTokens(ten.map((m) => ({ role: m.role, content: m.content }))), 'fields other than role and content are ignored');
  assert.ok(input.countTokens(ten) > input.countTokens(ten.slice(1)));
});

test('its messages are repaired: a result whose call was cut off is dropped, and it opens with the user', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  registered(t, { name: 'last-ten', priority: 3.2, build: lastTen });
  const ctx = s.buildContext({ contextWindow: 200_000 });
  // conversation() has four messages a turn, so the last ten start at a tool result.
  assert.deepEqual(ctx.debug.repairs.map((r) => r.kind).sort(), ['added_leading_user', 'dropped_empty_message', 'dropped_orphan_result']);
  assert.equal(ctx.messages[0].role, 'user');
  assert.deepEqual(sk.validateContext(ctx.messages, 'anthropic').problems, []);
  assert.equal(s.messages().length, 1000, 'nothing stored changed');
});

test('skipped when its minTokens is above the budget, without calling build()', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  const calls = registered(t, { name: 'needs-a-lot', priority: 0.5, minTokens: 100_000, build: lastTen });
  const ctx = s.buildContext({ contextWindow: 32_000 });
  assert.equal(calls.length, 0);
  assert.equal(ctx.strategy, 'recent-turns');
  assert.deepEqual(ctx.debug.attempts[0], { strategy: 'needs-a-lot', outcome: "budget below the strategy's minimum" });
  // At a window whose budget is above its minimum it comes first, before full-history.
  const large = s.buildContext({ contextWindow: 1_000_000 });
  assert.equal(calls.length, 1);
  assert.equal(large.strategy, 'needs-a-lot');
  assert.deepEqual(large.debug.attempts.map((a) => a.strategy), ['needs-a-lot']);
});

test('skipped when its result is over the budget after repairs; the next strategy is chosen', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  registered(t, { name: 'everything', priority: 2.5, build: ({ session }) => session.messages() });
  const ctx = s.buildContext({ contextWindow: 32_000 });
  checkContext(ctx);
  assert.equal(ctx.strategy, 'recent-turns');
  const attempt = ctx.debug.attempts.find((a) => a.strategy === 'everything');
  assert.equal(attempt.outcome, 'over budget after repairs');
  assert.ok(attempt.tokensUsed > ctx.tokenBudget);
  assert.match(ctx.debug.text, /skipped everything: over budget after repairs \([\d,]+ tokens\)/);
});

test('options.strategy may name a registered strategy; an unknown name lists them all', (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(40));
  registered(t, { name: 'last-ten', priority: 3.2, build: lastTen });
  const ctx = s.buildContext({ contextWindow: 200_000, strategy: 'last-ten' });
  assert.equal(ctx.strategy, 'last-ten', 'the built-ins before it are skipped, though full-history would fit');
  assert.deepEqual(ctx.debug.attempts.map((a) => a.strategy), ['last-ten']);
  assert.equal(s.buildContext({ contextWindow: 200_000 }).strategy, 'full-history');
  assert.throws(() => s.buildContext({ contextWindow: 200_000, strategy: 'nope' }),
    sessionError('INVALID_ARGUMENT', /unknown strategy "nope"; the strategies are full-history, pruned-tools, recent-plus-summary, last-ten, recent-turns, minimal-state, fallback/));
});

test('buildContextAsync waits for an async build(); buildContext refuses one', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  registered(t, { name: 'async-ten', priority: 3.2, build: async (input) => lastTen(input) });
  const ctx = await s.buildContextAsync({ contextWindow: 64_000, format: 'openai' });
  checkContext(ctx, { format: 'openai' });
  assert.equal(ctx.strategy, 'async-ten');
  assert.throws(() => s.buildContext({ contextWindow: 64_000 }),
    sessionError('STRATEGY_FAILED', /context strategy "async-ten": build\(\) returned a Promise, and buildContext is synchronous; use buildContextAsync/));
});

test('a build() that throws or returns something unusable fails the build clearly', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(100));
  const cause = new Error('the index is not loaded');
  const off = sk.registerStrategy({ name: 'broken', priority: 0, build: () => { throw cause; } });
  assert.throws(() => s.buildContext({ contextWindow: 200_000 }), (err) =>
    sessionError('STRATEGY_FAILED', /context strategy "broken": build\(\) threw: the index is not loaded\. Nothing stored changed\./)(err) && err.cause === cause);
  await assert.rejects(s.buildContextAsync({ contextWindow: 200_000 }), sessionError('STRATEGY_FAILED', /build\(\) threw/));
  off();
  for (const [name, out, message] of [
    ['not-messages', { text: 'hi' }, /build\(\) must return an array of messages or \{ messages/],
    ['bad-count', { messages: [], includedCount: 1.5 }, /includedCount that is not an integer/],
    ['bad-role', [{ role: 'system', content: 'be brief' }], /returned messages that are not well formed: .*messages\[0\]\.role must be "user" or "assistant"/],
  ]) {
    const off = sk.registerStrategy({ name, priority: 0, build: () => out });
    assert.throws(() => s.buildContext({ contextWindow: 200_000 }), sessionError('STRATEGY_FAILED', message));
    off();
  }
  assert.equal(s.buildContext({ contextWindow: 200_000 }).strategy, 'full-history', 'removed strategies are not tried');
  assert.equal(s.messages().length, 100);
});

test('registerStrategy checks its argument', (t) => {
  const build = () => [];
  assert.throws(() => sk.registerStrategy(null), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => sk.registerStrategy({ name: '', priority: 1, build }), /"strategy.name" argument must be a non-empty string/);
  assert.throws(() => sk.registerStrategy({ name: 'x', priority: NaN, build }), /"strategy.priority" argument must be a finite number/);
  assert.throws(() => sk.registerStrategy({ name: 'x', priority: 1, minTokens: -1, build }), /"strategy.minTokens"/);
  assert.throws(() => sk.registerStrategy({ name: 'x', priority: 1 }), /"strategy.build" argument must be a function/);
  assert.throws(() => sk.registerStrategy({ name: 'pruned-tools', priority: 1, build }), sessionError('INVALID_ARGUMENT', /named "pruned-tools" exists already/));
  const off = sk.registerStrategy({ name: 'mine', priority: 1, build });
  t.after(off);
  assert.throws(() => sk.registerStrategy({ name: 'mine', priority: 2, build }), sessionError('INVALID_ARGUMENT', /named "mine" exists already/));
});
