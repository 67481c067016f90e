import type { Command } from './command';
import { flag } from './args';
import { printJSON } from './context';
import { conversation } from './render';
import { header } from '../render/header';
import { whileWaiting } from './term';
import { withSession } from './ids';
import { follow } from './follow';

/** show prints a session's conversation, tool calls and results included; --follow keeps printing it as it grows. */
export const show: Command = {
  name: 'show',
  summary: 'print a conversation: text, thinking, tool calls and their results',
  usage: 'show <id> [--full] [--follow] [--json]',
  options: { full: { type: 'boolean' }, follow: { type: 'boolean' } },
  async run(ctx, args) {
    return withSession(ctx, args, async (session, info) => {
      if (flag(args, 'follow')) {
        if (!ctx.json) ctx.out(header(info, ctx.style).join('\n') + '\n');
        return follow(ctx, session, flag(args, 'full'));
      }
      const envelopes = await whileWaiting('reading the session', session.envelopesAsync());
      if (ctx.json) return printJSON(ctx, envelopes);
      ctx.out([...header(info, ctx.style), ...conversation(envelopes, ctx.style, flag(args, 'full'))].join('\n') + '\n');
    });
  },
};
