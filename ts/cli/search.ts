import type { Command } from './command';
import { UsageError, intOption, stringOption } from './args';
import { printJSON } from './context';
import { whileWaiting } from './term';
import { cut } from '../render/style';
import { relativeTime } from '../relative-time';

const OPEN = '\u0002';
const CLOSE = '\u0003';

/** search finds messages across every session with full-text search. */
export const search: Command = {
  name: 'search',
  summary: 'full-text search over every session',
  usage: 'search <text...> [--project <path>] [--limit n] [--json]',
  options: { project: { type: 'string' }, limit: { type: 'string', short: 'n' } },
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('give the text to search for');
    const text = args.positionals.join(' ');
    const options = { projectPath: stringOption(args, 'project'), limit: intOption(args, 'limit', 20) };
    if (ctx.json) return printJSON(ctx, await ctx.store.searchAsync(text, options));
    const hits = await whileWaiting('searching', ctx.store.searchAsync(text, { ...options, highlight: [OPEN, CLOSE] }));
    if (hits.length === 0) {
      ctx.out(`Nothing matches ${JSON.stringify(text)}.\n`);
      return;
    }
    const s = ctx.style;
    const mark = new RegExp(`${OPEN}(.*?)${CLOSE}`, 'g');
    for (const h of hits) {
      ctx.out(`${s.dim(relativeTime(h.timestamp).padEnd(14))} ${h.sessionId}  ${s.bold(cut(h.sessionTitle || '(untitled)', Math.max(20, ctx.width - 54)))}\n`);
      const snippet = h.snippet.replace(/\s+/g, ' ').replace(mark, (_, m: string) => s.yellow(s.bold(m)));
      ctx.out(`  ${s.dim(h.role + ':')} ${snippet}\n`);
    }
  },
};
