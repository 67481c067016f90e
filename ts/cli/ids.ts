import { UsageError, type Parsed } from './args';
import type { Context } from './context';
import type { Session } from '../session';
import type { SessionInfo } from '../types';

/** sessionArg is the one session id (or id prefix) a command was given. */
export function sessionArg(args: Parsed): string {
  if (args.positionals.length !== 1) throw new UsageError('give one session id (or the first characters of one)');
  return args.positionals[0];
}

/** sessionArgs are the session ids (or prefixes) a command was given, at least one. */
export function sessionArgs(args: Parsed): string[] {
  if (args.positionals.length === 0) throw new UsageError('give at least one session id (or the first characters of one)');
  return args.positionals;
}

/**
 * withSession opens the one session a command was given (by id or prefix), runs work on it
 * with its listing, and closes it whatever happens.
 */
export async function withSession<T>(ctx: Context, args: Parsed, work: (session: Session, info: SessionInfo) => Promise<T>): Promise<T> {
  const info = ctx.store.sessionInfo(sessionArg(args));
  const session = ctx.store.openSession(info.id);
  try {
    return await work(session, info);
  } finally {
    session.close();
  }
}
