import type { Command } from './command';
import { UsageError, intOption, stringOption } from './args';
import { printJSON } from './context';
import { whileWaiting } from './term';
import { withSession } from './ids';
import type { ContextFormat } from '../context-types';
import { DEFAULT_WINDOW } from '../default-window';

const FORMATS: ContextFormat[] = ['anthropic', 'openai'];

/**
 * debugContext builds the context the session's next model call would get (seed 004's
 * /debug context) and prints its report: the strategy, tokens used against the budget, and
 * the messages included, pruned and summarized. Nothing is summarized: it shows what fits now.
 */
export const debugContext: Command = {
  name: 'debug-context',
  summary: 'what the next model call would be sent, and why',
  usage: 'debug-context <id> [--window <tokens>] [--format anthropic|openai] [--json]',
  options: { window: { type: 'string', short: 'w' }, format: { type: 'string' } },
  async run(ctx, args) {
    const format = (stringOption(args, 'format') ?? 'anthropic') as ContextFormat;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be anthropic or openai, not ${JSON.stringify(format)}`);
    return withSession(ctx, args, async (session, info) => {
      const contextWindow = intOption(args, 'window', info.contextWindow || DEFAULT_WINDOW);
      const result = await whileWaiting('building the context', session.buildContextAsync({ contextWindow, format }));
      const { text, ...report } = result.debug;
      if (ctx.json) return printJSON(ctx, report);
      ctx.out(text.endsWith('\n') ? text : text + '\n');
    });
  },
};
