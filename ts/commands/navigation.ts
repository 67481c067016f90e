import type { SessionInfo } from '../types';
import { CommandError, noArgs, type SessionCommand } from './command';

/** PICKED is how many of the project's sessions the picker offers. */
const PICKED = 50;

/**
 * resume is /resume [id]: with an id (or its first characters) the app opens that session;
 * without one, it shows a picker over this project's sessions.
 */
export const resume: SessionCommand = {
  name: '/resume',
  args: '[id]',
  summary: 'go on with another session (by id or its first characters; a picker without one)',
  needsSession: false,
  async run(args, ctx) {
    if (args.length > 1) throw new CommandError('INVALID_COMMAND', '/resume takes one session id (or the first characters of one).');
    if (args.length === 0) {
      const list = (await ctx.store.listSessionsAsync({ projectPath: ctx.projectPath, limit: PICKED })) as SessionInfo[];
      if (list.length === 0) return { text: `No sessions to resume in ${ctx.projectPath}.`, data: [] };
      return { text: `Pick one of ${list.length} session${list.length === 1 ? '' : 's'} to resume.`, data: list, action: { type: 'pick-session', sessions: list } };
    }
    const info = ctx.store.sessionInfo(args[0]);
    if (info.id === ctx.session?.id) return { text: `Session ${info.id} is the one open.`, data: info };
    return {
      text: `Resuming ${info.title ? `"${info.title}"` : 'an untitled session'} (${info.id}, ${info.messageCount} messages).`,
      data: info,
      action: { type: 'open-session', sessionId: info.id, reason: 'resume' },
    };
  },
};

/** newSession is /new: the app starts a new session; the current one stays as it is. */
export const newSession: SessionCommand = {
  name: '/new',
  args: '',
  summary: 'start a new session (this one is kept)',
  needsSession: false,
  async run(args, ctx) {
    noArgs('/new', args);
    const kept = ctx.session ? ` Session ${ctx.session.id} is kept; /resume goes back to it.` : '';
    return { text: `Starting a new session.${kept}`, data: { previous: ctx.session?.id ?? null }, action: { type: 'new-session' } };
  },
};
