import { usageLines } from '../render/details';
import { formatCost, formatInt, resumeSummary } from '../resume-summary';
import { currentSession, noArgs, type SessionCommand } from './command';

/**
 * cost is /cost: seed 003's token totals and cost of the session, by model, and how full
 * the context is. The cost is at the built-in list prices, under `prices` from the options;
 * a model with neither is named, and left out of the total.
 */
export const cost: SessionCommand = {
  name: '/cost',
  args: '',
  summary: 'tokens and cost of this session, by model',
  needsSession: true,
  async run(args, ctx) {
    noArgs('/cost', args);
    const details = await currentSession(ctx).detailsAsync({ prices: ctx.options.prices });
    const s = resumeSummary(details);
    const t = details.tokens;
    const lines = [
      `Total Tokens Used: ${formatInt(s.totalTokens)} (${formatInt(t.inputTokens)} in, ${formatInt(t.outputTokens)} out, `
        + `${formatInt(t.cacheReadInputTokens)} cache read, ${formatInt(t.cacheCreationInputTokens)} cache write)`,
      `Total Cost: ${formatCost(details.cost ?? 0)}`,
    ];
    if (details.unpricedModels?.length) lines.push(ctx.style.dim(`no price for ${details.unpricedModels.join(', ')}; not counted`));
    lines.push(s.contextWindow
      ? `Context Usage: ${formatInt(s.contextTokens)} / ${formatInt(s.contextWindow)} tokens (${Math.round(s.contextPercent!)}%)`
      : `Context Usage: ${formatInt(s.contextTokens)} tokens`);
    if (details.usage.length > 0) lines.push('By model:', ...usageLines(details.usage));
    const data = {
      tokens: t, totalTokens: s.totalTokens, cost: details.cost, unpricedModels: details.unpricedModels,
      usage: details.usage, contextTokens: s.contextTokens, contextWindow: s.contextWindow,
    };
    return { text: lines.join('\n'), data };
  },
};
