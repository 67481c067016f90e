import type { Command } from './command';
import { flag, intOption, stringOption } from './args';
import { printJSON } from './context';
import { cut, pad, padStart, whileWaiting, type Style } from './term';
import { relativeTime } from '../relative-time';
import type { SessionInfo } from '../types';

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

/**
 * sessionTable is `ls`'s table for people: when, counts, status, id, project (withProject)
 * and title, cut to `width`. The in-session /sessions command prints it too.
 */
export function sessionTable(list: SessionInfo[], s: Style, width: number, withProject: boolean): string {
  const when = list.map((i) => relativeTime(i.updatedAt));
  const whenWidth = Math.max(7, ...when.map((w) => w.length));
  const head = [pad('UPDATED', whenWidth), padStart('MSGS', 5), padStart('TOOLS', 5), pad('STATUS', 11), pad('ID', 36)];
  if (withProject) head.push('PROJECT');
  head.push('TITLE');
  const fixed = whenWidth + 5 + 5 + 11 + 36 + 5 * 2;
  const lines = [s.bold(head.join('  '))];
  list.forEach((i, n) => {
    const status = i.status === 'active' ? pad(i.status, 11) : s.yellow(pad(i.status, 11));
    const row = [pad(when[n], whenWidth), padStart(String(i.messageCount), 5), padStart(String(i.toolCount), 5), status, i.id];
    let room = Math.max(20, width - fixed);
    if (withProject) {
      const project = cut(i.projectPath || i.key || '', Math.min(40, Math.floor(room / 2)));
      row.push(s.dim(project));
      room -= project.length + 2;
    }
    row.push(cut(i.title || s.dim('(untitled)'), Math.max(10, room)));
    lines.push(row.join('  '));
  });
  return lines.join('\n') + '\n';
}
