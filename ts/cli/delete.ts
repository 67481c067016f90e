import readline from 'node:readline/promises';
import type { Command } from './command';
import { UsageError, flag } from './args';
import { printJSON } from './context';
import { sessionArgs } from './ids';

/**
 * delete deletes sessions for good. It asks first on a terminal; anywhere else it needs
 * --yes, since nothing is ever deleted that the user did not ask for.
 */
export const deleteCommand: Command = {
  name: 'delete',
  summary: 'delete sessions for good (asks first; --yes when not on a terminal)',
  usage: 'delete <id...> [--yes]',
  options: { yes: { type: 'boolean', short: 'y' } },
  async run(ctx, args) {
    const sessions = sessionArgs(args).map((id) => ctx.store.sessionInfo(id));
    if (!flag(args, 'yes')) {
      if (!process.stdin.isTTY || !process.stderr.isTTY) {
        throw new UsageError('delete needs --yes when it cannot ask on a terminal');
      }
      const names = sessions.map((s) => `  ${s.id}  ${s.title || '(untitled)'} (${s.messageCount} messages)`).join('\n');
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      const answer = await rl.question(`Delete for good:\n${names}\n? [y/N] `);
      rl.close();
      if (!/^y(es)?$/i.test(answer.trim())) {
        process.stderr.write('nothing deleted\n');
        return;
      }
    }
    for (const s of sessions) await ctx.store.deleteSessionAsync(s.id);
    if (ctx.json) return printJSON(ctx, { deleted: sessions.map((s) => s.id) });
    for (const s of sessions) ctx.out(`deleted ${s.id}\n`);
  },
};
