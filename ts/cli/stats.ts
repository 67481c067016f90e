import type { Command } from './command';
import { UsageError, flag, intOption, stringOption } from './args';
import { printJSON } from './context';
import { pricesOption } from './prices';
import { blockLines } from './blocks';
import { whileWaiting } from './term';
import { pad, padStart } from '../render/style';
import { formatCost, formatInt } from '../resume-summary';
import type { ModelUsage } from '../management-types';

/** stats prints token usage and its cost by day and model, or by 5-hour window (--blocks). */
export const stats: Command = {
  name: 'stats',
  summary: 'token usage and cost by day and model, or by 5-hour window',
  usage: 'stats [--project <path>] [--days n | --since <date>] [--until <date>] [--blocks] [--prices <file>] [--json]',
  options: {
    project: { type: 'string' },
    days: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    prices: { type: 'string' },
    blocks: { type: 'boolean' },
  },
  async run(ctx, args) {
    const since = dateOption(stringOption(args, 'since'), 'since');
    const until = dateOption(stringOption(args, 'until'), 'until');
    const days = intOption(args, 'days', 0);
    if (days > 0 && since) throw new UsageError('give --days or --since, not both');
    const start = days > 0 ? new Date(new Date().setHours(0, 0, 0, 0) - (days - 1) * 86_400_000) : since;
    const st = await whileWaiting('summing usage', ctx.store.statsAsync({
      projectPath: stringOption(args, 'project'), since: start, until, prices: pricesOption(args), blocks: flag(args, 'blocks'),
    }));
    if (ctx.json) return printJSON(ctx, st);
    if (st.days.length === 0) {
      ctx.out('No usage recorded.\n');
      return;
    }
    if (st.blocks) {
      const lines = blockLines(st.blocks, ctx.style);
      if (st.unpricedModels) lines.push(ctx.style.dim(`no price for ${st.unpricedModels.join(', ')}; their cost is not counted`));
      ctx.out(lines.join('\n') + '\n');
      return;
    }
    const priced = st.totals.cost !== undefined;
    const modelWidth = Math.max(5, ...st.days.map((r) => r.model.length));
    const s = ctx.style;
    const head = [pad('DAY', 10), pad('MODEL', modelWidth), padStart('REQS', 6), padStart('INPUT', 12), padStart('OUTPUT', 11),
      padStart('CACHE READ', 12), padStart('CACHE WRITE', 12)];
    if (priced) head.push(padStart('COST', 10));
    const row = (day: string, model: string, u: ModelUsage) => {
      const cells = [pad(day, 10), pad(model, modelWidth), padStart(formatInt(u.requests), 6), padStart(formatInt(u.inputTokens), 12),
        padStart(formatInt(u.outputTokens), 11), padStart(formatInt(u.cacheReadInputTokens), 12), padStart(formatInt(u.cacheCreationInputTokens), 12)];
      if (priced) cells.push(padStart(u.cost === undefined ? '–' : formatCost(u.cost), 10));
      return cells.join('  ');
    };
    const lines = [s.bold(head.join('  ')), ...st.days.map((r) => row(r.day, r.model, r)), s.bold(row('total', '', st.totals))];
    if (st.unpricedModels) lines.push(s.dim(`no price for ${st.unpricedModels.join(', ')}; their cost is not counted`));
    ctx.out(lines.join('\n') + '\n');
  },
};

function dateOption(v: string | undefined, name: string): Date | undefined {
  if (v === undefined) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} must be a date such as 2026-03-01, not ${JSON.stringify(v)}`);
  return d;
}
