import type { Command } from './command';
import { UsageError } from './args';
import { printJSON } from './context';

/** rename sets a session's title. */
export const rename: Command = {
  name: 'rename',
  summary: 'set a session\'s title',
  usage: 'rename <id> <title...>',
  options: {},
  async run(ctx, args) {
    const [id, ...words] = args.positionals;
    if (!id || words.length === 0) throw new UsageError('give a session id and the new title');
    const info = ctx.store.sessionInfo(id);
    const title = words.join(' ');
    ctx.store.renameSession(info.id, title);
    if (ctx.json) return printJSON(ctx, { id: info.id, title: title.trim() });
    ctx.out(`renamed ${info.id}: ${title.trim()}\n`);
  },
};
