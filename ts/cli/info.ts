import type { Command } from './command';
import { printJSON } from './context';
import { withSession } from './ids';
import { pricesOption } from './prices';
import { resumeSummary } from '../resume-summary';
import { detailLines } from '../render/details';
import { whileWaiting } from './term';

/** info prints what is known of a session, and its resume summary. */
export const info: Command = {
  name: 'info',
  summary: 'show a session\'s details: times, counts, tokens and cost by model',
  usage: 'info <id> [--prices <file>] [--json]',
  options: { prices: { type: 'string' } },
  async run(ctx, args) {
    return withSession(ctx, args, async (session) => {
      const prices = pricesOption(args);
      const details = await whileWaiting('reading the session', session.detailsAsync({ prices }));
      const summary = resumeSummary(details);
      if (ctx.json) return printJSON(ctx, { ...details, resumeSummary: summary });
      ctx.out(detailLines(details, summary, ctx.style).join('\n') + '\n');
    });
  },
};
