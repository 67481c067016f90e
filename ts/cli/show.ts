import type { Command } from './command';
import { flag } from './args';
import { printJSON } from './context';
import { conversation, header } from './render';
import { whileWaiting } from './term';
import { withSession } from './ids';

/** show prints a session's conversation, tool calls and results included. */
export const show: Command = {
  name: 'show',
  summary: 'print a conversation: text, thinking, tool calls and their results',
  usage: 'show <id> [--full] [--json]',
  options: { full: { type: 'boolean' } },
  async run(ctx, args) {
    return withSession(ctx, args, async (session, info) => {
      const envelopes = await whileWaiting('reading the session', session.envelopesAsync());
      if (ctx.json) return printJSON(ctx, envelopes);
      ctx.out([...header(info, ctx.style), ...conversation(envelopes, ctx.style, flag(args, 'full'))].join('\n') + '\n');
    });
  },
};
