import type { Command } from './command';
import { printJSON } from './context';
import { sessionArgs } from './ids';

/** unarchive lists archived sessions again. */
export const unarchive: Command = {
  name: 'unarchive',
  summary: 'list archived sessions again',
  usage: 'unarchive <id...>',
  options: {},
  async run(ctx, args) {
    const ids = sessionArgs(args).map((id) => ctx.store.sessionInfo(id).id);
    for (const id of ids) ctx.store.unarchiveSession(id);
    if (ctx.json) return printJSON(ctx, { unarchived: ids });
    for (const id of ids) ctx.out(`unarchived ${id}\n`);
  },
};
