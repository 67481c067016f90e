// context.mjs measures buildContext at a 32K-token budget on sessions of 1,000 and 20,000
// messages: it should cost about the same on both, since it reads counts through indexes,
// the tail and cached summaries, never the whole session.
//
//   node bench/context.mjs            (after make build)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { conversation, recordingSummarizer } from '../test/helpers/context.mjs';
import { openStore } from '../test/helpers/common.mjs';

const RUNS = 101;
// A window whose budget, after the default 25% reserve, is 32,000 tokens.
const OPTS = { contextWindow: Math.round(32_000 / 0.75), systemPrompt: 'You are a coding agent.' };

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; }

async function time(fn) {
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

/** measure times each way of building on one session of n messages. */
async function measure(dir, n) {
  const store = openStore(join(dir, `bench-${n}.db`));
  const s = store.createSession({ provider: 'claude' });
  s.restoreMessages(conversation(n, { interrupted: true }));
  let t0 = performance.now();
  s.buildContext(OPTS); // waits for the counts and folds the session state, once
  const first = performance.now() - t0;
  const row = { n, first };
  row.minimal = await time(() => s.buildContext(OPTS));
  row.strategyMinimal = s.buildContext(OPTS).strategy;
  const z = recordingSummarizer();
  await s.buildContextAsync({ ...OPTS, summarize: z.summarize, autoCompact: false });
  row.summary = await time(() => s.buildContext(OPTS));
  const withSummary = s.buildContext(OPTS);
  row.strategySummary = `${withSummary.strategy}, ${withSummary.messages.length} messages, ${withSummary.tokensUsed.toLocaleString('en')} tokens`;
  row.summaryAsync = await time(() => s.buildContextAsync(OPTS));
  await s.compact({ summarize: z.summarize });
  row.compacted = await time(() => s.buildContext(OPTS));
  row.whole = await time(() => s.messages());
  const compacted = s.buildContext(OPTS);
  row.strategyCompacted = `${compacted.strategy}, ${compacted.messages.length} messages`;
  store.close();
  return row;
}

const dir = mkdtempSync(join(tmpdir(), 'sessionkeep-bench-context-'));
try {
  const rows = [];
  for (const n of [1000, 20000]) rows.push(await measure(dir, n));
  const f = (ms) => `${ms.toFixed(2)} ms`;
  console.log(`buildContext at a 32,000-token budget (median of ${RUNS})\n`);
  console.log('| messages | first build (counts + state, once) | no summary | with a cached summary | same, async | after compact() | for scale: messages(), the whole session |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.n.toLocaleString('en')} | ${f(r.first)} | ${f(r.minimal)} (${r.strategyMinimal}) | ${f(r.summary)} (${r.strategySummary}) | ${f(r.summaryAsync)} | ${f(r.compacted)} (${r.strategyCompacted}) | ${f(r.whole)} |`);
  }
  const [a, b] = rows;
  console.log(`\n20,000 / 1,000 messages: no summary ×${(b.minimal / a.minimal).toFixed(2)}, cached summary ×${(b.summary / a.summary).toFixed(2)}, after compact ×${(b.compacted / a.compacted).toFixed(2)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
