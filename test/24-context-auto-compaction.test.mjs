// Automatic compaction: past the threshold (75% of the window by default) buildContext says
// compaction is due, and buildContextAsync with a summarizer compacts, tells onCompaction
// when it starts and when it is done, and returns what it did with the context.
import test from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';
import { conversation, sessionWith, checkContext, recordingSummarizer } from './helpers/context.mjs';

test('past the threshold: compactionDue, then buildContextAsync compacts and reports it', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(160));
  const full = s.buildContext({ contextWindow: 200_000 }).budget.conversationTokens;
  const contextWindow = Math.ceil(full / 0.8); // the history takes 80% of this window
  const sync = s.buildContext({ contextWindow });
  assert.equal(sync.compactionDue, true);
  assert.equal(s.buildContext({ contextWindow, compactThreshold: 0.9 }).compactionDue, false);

  const z = recordingSummarizer();
  const events = [];
  const ctx = await s.buildContextAsync({ contextWindow, summarize: z.summarize, keepRecentTurns: 4, onCompaction: (e) => events.push(e) });
  checkContext(ctx);
  assert.deepEqual(events.map((e) => e.phase), ['start', 'done']);
  assert.equal(events[0].trigger, 'threshold');
  assert.equal(events[0].plan.keptTurns, 4);
  assert.equal(events[1].result.compacted, true);
  assert.equal(ctx.compaction.compacted, true);
  assert.equal(ctx.compaction.boundary.trigger, 'threshold');
  assert.equal(ctx.compaction.summarizerCalls, z.calls.length);
  assert.equal(ctx.compactionDue, false);
  assert.equal(ctx.strategy, 'full-history');
  assert.equal(ctx.summarizedMessageCount, 160 - 16);
  assert.ok(ctx.tokensUsed < full / 5);

  const next = await s.buildContextAsync({ contextWindow, summarize: z.summarize, onCompaction: (e) => events.push(e) });
  assert.equal(next.compaction, undefined);
  assert.equal(events.length, 2, 'no compaction below the threshold');
  assert.equal(s.messages().length, 160);
});

test('autoCompact: false only reports; without a summarizer nothing is called', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(160));
  const contextWindow = Math.ceil(s.buildContext({ contextWindow: 200_000 }).budget.conversationTokens / 0.8);
  const z = recordingSummarizer();
  const a = await s.buildContextAsync({ contextWindow, summarize: z.summarize, autoCompact: false });
  const b = await s.buildContextAsync({ contextWindow });
  for (const ctx of [a, b]) {
    checkContext(ctx);
    assert.equal(ctx.compactionDue, true);
    assert.equal(ctx.compaction, undefined);
  }
  assert.equal(z.calls.length, 0);
  await assert.rejects(s.buildContextAsync({ contextWindow, summarize: 'yes' }), TypeError);
});

test('when the context would leave messages out, a summary is made for recent-plus-summary, once', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(1000));
  const opts = { contextWindow: 32_000 };
  const without = s.buildContext(opts);
  assert.equal(without.strategy, 'recent-turns');
  assert.ok(without.debug.omitted.messageCount > 0);
  const z = recordingSummarizer();
  const ctx = await s.buildContextAsync({ ...opts, summarize: z.summarize, autoCompact: false });
  checkContext(ctx);
  assert.equal(ctx.strategy, 'recent-plus-summary');
  assert.ok(z.calls.length >= 1);
  assert.ok(ctx.includedMessageCount > 4);
  assert.equal(ctx.includedMessageCount + ctx.summarizedMessageCount, 1000);
  assert.equal(ctx.debug.boundary, undefined, 'a summary for a build writes no boundary');
  const calls = z.calls.length;
  const sync = s.buildContext(opts);
  assert.equal(sync.strategy, 'recent-plus-summary', 'the cached summary serves synchronous builds');
  assert.deepEqual(sync.messages, ctx.messages);
  await s.buildContextAsync({ ...opts, summarize: z.summarize, autoCompact: false });
  assert.equal(z.calls.length, calls);
});
