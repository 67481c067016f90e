import { CommandError, currentSession, type SessionCommand } from './command';

/** rename is /rename <title>: the session's title in lists, in place of its first prompt. */
export const rename: SessionCommand = {
  name: '/rename',
  args: '<title>',
  summary: 'set this session\'s title',
  needsSession: true,
  async run(args, ctx) {
    const title = args.join(' ').trim();
    if (!title) throw new CommandError('INVALID_COMMAND', '/rename needs the new title: /rename <title>.');
    const session = currentSession(ctx);
    ctx.store.renameSession(session.id, title);
    return { text: `Renamed this session: ${title}`, data: { id: session.id, title } };
  },
};
