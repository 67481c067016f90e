import type { Command } from './command';
import { printJSON } from './context';
import { sessionArgs } from './ids';

/** archive hides sessions from `ls` and --continue; nothing is deleted. */
export const archive: Command = {
  name: 'archive',
  summary: 'hide sessions from ls and --continue (nothing is deleted)',
  usage: 'archive <id...>',
  options: {},
  async run(ctx, args) {
    const ids = sessionArgs(args).map((id) => ctx.store.sessionInfo(id).id);
    for (const id of ids) ctx.store.archiveSession(id);
    if (ctx.json) return printJSON(ctx, { archived: ids });
    for (const id of ids) ctx.out(`archived ${id}\n`);
  },
};
