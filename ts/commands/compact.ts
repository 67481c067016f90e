import { formatInt } from '../resume-summary';
import type { CompactPlan } from '../context-types';
import { CommandError, currentSession, noArgs, type CommandContext, type SessionCommand } from './command';

/**
 * compact is seed 004's /compact: what a compaction would do, nothing written. With a
 * summarizer in the options its action asks to confirm, and yes runs /compact --apply.
 */
export const compact: SessionCommand = {
  name: '/compact',
  args: '',
  summary: 'show what a compaction would summarize and keep (nothing is written)',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/compact', args);
    const { plan } = await currentSession(ctx).compact({ dryRun: true, keepRecentTurns: ctx.options.keepRecentTurns });
    if (!plan.compactable) return { text: `Nothing to compact: ${plan.reason ?? 'the session is too short'}.`, data: plan };
    const lines = planLines(plan);
    if (!ctx.options.summarize) {
      lines.push('Compacting needs a summarizer (the `summarize` option); this agent gives none.');
      return { text: lines.join('\n'), data: plan };
    }
    lines.push('/compact --apply summarizes them; the messages themselves are kept.');
    return { text: lines.join('\n'), data: plan, action: { type: 'confirm', question: 'Compact the session now?', line: '/compact --apply' } };
  },
};

/**
 * compactApply is /compact --apply: the older turns are summarized with the caller's
 * summarizer and later contexts start from the summary. Nothing is deleted.
 */
export const compactApply: SessionCommand = {
  name: '/compact --apply',
  args: '',
  summary: 'summarize the older turns now; later model calls start from the summary',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/compact --apply', args);
    const summarize = needSummarizer(ctx);
    const result = await currentSession(ctx).compact({
      summarize, keepRecentTurns: ctx.options.keepRecentTurns, model: ctx.options.summaryModel,
    });
    if (!result.compacted) return { text: `Nothing to compact: ${result.plan.reason ?? 'the session is too short'}.`, data: result };
    const b = result.boundary!;
    const calls = result.summarizerCalls === 0 ? 'the summary was already made' : `${result.summarizerCalls} summarizer call${result.summarizerCalls === 1 ? '' : 's'}`;
    const text = `Compacted: ${result.plan.summarizedMessageCount} messages summarized (${calls}); `
      + `the context goes from ${formatInt(b.tokensBefore)} to ${formatInt(b.tokensAfter)} tokens. The messages themselves are kept.`;
    return { text, data: result };
  },
};

function needSummarizer(ctx: CommandContext) {
  const summarize = ctx.options.summarize;
  if (!summarize) throw new CommandError('NO_SUMMARIZER', 'Compacting needs a summarizer: pass `summarize` (your model) in the options.');
  return summarize;
}

/** planLines says what a compaction would summarize and keep. */
function planLines(p: CompactPlan): string[] {
  return [
    `A compaction would summarize ${p.summarizedMessageCount} older messages and keep the last ${p.keptTurns} turns (${p.keptMessageCount} messages) as they are.`,
    `The conversation takes ${formatInt(p.tokensBefore)} tokens; the kept part ${formatInt(p.tokensKept)}, plus the summary.`
      + (p.summaryCached ? ' The summary is already made (cached).' : ''),
  ];
}
