import { sessionTable } from '../render/session-table';
import type { SessionInfo } from '../types';
import { CommandError, type CommandContext, type Reply, type SessionCommand } from './command';

/** LISTED is how many sessions /sessions shows; the CLI's `sessionkeep ls` shows more. */
const LISTED = 20;

/** sessions is seed 004's /sessions: this project's sessions, newest first. */
export const sessions: SessionCommand = {
  name: '/sessions',
  args: '',
  summary: 'list this project\'s sessions, newest first',
  needsSession: false,
  run: (args, ctx) => list(args, ctx, false),
};

/** sessionsAll is /sessions all: every project's sessions. */
export const sessionsAll: SessionCommand = {
  name: '/sessions all',
  args: '',
  summary: 'list the sessions of every project',
  needsSession: false,
  run: (args, ctx) => list(args, ctx, true),
};

async function list(args: string[], ctx: CommandContext, all: boolean): Promise<Reply> {
  if (args.length > 0) throw new CommandError('INVALID_COMMAND', `/sessions takes nothing or "all", not ${JSON.stringify(args.join(' '))}.`);
  const projectPath = all ? undefined : ctx.projectPath;
  // One more than shown says whether there are more.
  const found = (await ctx.store.listSessionsAsync({ projectPath, limit: LISTED + 1 })) as SessionInfo[];
  const shown = found.slice(0, LISTED);
  if (shown.length === 0) {
    const text = all ? 'No sessions.' : `No sessions in ${projectPath}. /sessions all lists every project's.`;
    return { text, data: [] };
  }
  let text = sessionTable(shown, ctx.style, ctx.width, all).replace(/\n$/, '');
  if (ctx.session) text = markCurrent(text, ctx.session.id);
  if (found.length > LISTED) text += `\n${ctx.style.dim(`… and more: \`sessionkeep ls${all ? ' --all' : ''}\` lists them all`)}`;
  return { text, data: shown };
}

/** markCurrent puts a * after the id of the session the agent is in, in the column's gap. */
function markCurrent(table: string, id: string): string {
  return table.replace(`${id}  `, `${id}* `);
}
