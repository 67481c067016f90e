import type { Command } from './command';
import { flag, intOption, stringOption } from './args';
import { printJSON } from './context';
import { whileWaiting } from './term';
import { sessionTable } from '../render/session-table';

/** ls lists sessions newest first: this project's, or with --all every project's. */
export const ls: Command = {
  name: 'ls',
  summary: 'list sessions, newest first (this project, or --all)',
  usage: 'ls [--all | --project <path>] [--archived] [--limit n] [--offset n] [--json]',
  options: {
    all: { type: 'boolean', short: 'a' },
    project: { type: 'string' },
    archived: { type: 'boolean' },
    limit: { type: 'string', short: 'n' },
    offset: { type: 'string' },
  },
  async run(ctx, args) {
    const all = flag(args, 'all');
    const projectPath = all ? undefined : (stringOption(args, 'project') ?? process.cwd());
    const limit = intOption(args, 'limit', ctx.json ? 0 : 50);
    const offset = intOption(args, 'offset', 0);
    const options = { projectPath, offset, includeArchived: flag(args, 'archived') };
    // One more than asked for says whether there are more.
    const list = await whileWaiting('listing sessions', ctx.store.listSessionsAsync({ ...options, limit: limit === 0 ? 0 : limit + 1 }));
    const more = limit !== 0 && list.length > limit;
    const shown = more ? list.slice(0, limit) : list;
    if (ctx.json) return printJSON(ctx, shown);
    if (shown.length === 0) {
      ctx.out(projectPath ? `No sessions in ${projectPath}. \`sessionkeep ls --all\` lists every project.\n` : 'No sessions.\n');
      return;
    }
    ctx.out(sessionTable(shown, ctx.style, ctx.width, all));
    if (more) ctx.out(ctx.style.dim(`… more sessions: --offset ${offset + limit}, or --limit 0 for all\n`));
  },
};
