import type { Store } from '../store';
import type { Session } from '../session';
import type { Style } from '../render/style';
import type { SessionCommandAction, SessionCommandErrorCode, SessionCommandOptions, SessionCommandSpec } from './types';

/** Reply is what a command hands back: its text, its data, and what the app must do. */
export interface Reply {
  text: string;
  data: unknown;
  action?: SessionCommandAction;
}

/** CommandContext is what a command runs with: the caller's options, resolved. */
export interface CommandContext {
  store: Store;
  session: Session | null;
  options: SessionCommandOptions;
  projectPath: string;
  root: string;
  style: Style;
  width: number;
  /** Every command, for /help. */
  commands: readonly SessionCommand[];
}

/** SessionCommand is one in-session command, in a file of its own (or with its siblings). */
export interface SessionCommand extends SessionCommandSpec {
  /** args are the words after the name; a quoted word may hold spaces. */
  run(args: string[], ctx: CommandContext): Promise<Reply>;
}

/**
 * CommandError is a command that cannot run as typed, or on the state things are in: its
 * `code` is stable (INVALID_COMMAND, NO_SESSION, …) and its message says what to do.
 */
export class CommandError extends Error {
  readonly code: SessionCommandErrorCode;

  constructor(code: SessionCommandErrorCode, message: string) {
    super(message);
    this.name = 'CommandError';
    this.code = code;
  }
}

/** specOf is a command's description without its code, as help screens and completion list it. */
export function specOf({ name, args, summary, needsSession }: SessionCommandSpec): SessionCommandSpec {
  return { name, args, summary, needsSession };
}

/** currentSession is the session the command is about, or NO_SESSION before there is one. */
export function currentSession(ctx: CommandContext): Session {
  if (!ctx.session) throw new CommandError('NO_SESSION', 'There is no session yet: it starts with the first prompt.');
  return ctx.session;
}

/** noArgs refuses words a command does not take. */
export function noArgs(name: string, args: string[]): void {
  if (args.length > 0) throw new CommandError('INVALID_COMMAND', `${name} takes no arguments, not ${JSON.stringify(args.join(' '))}.`);
}

/** shortId is the first 8 characters of an id, as lists show it. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}
