import type { Store } from '../store';
import type { Session } from '../session';
import type { SessionInfo } from '../types';
import type { Prices } from '../management-types';
import type { ContextFormat, Summarizer } from '../context-types';
import type { SessionErrorCode } from '../errors';

/** SessionCommandOptions is what runSessionCommand runs a line with. */
export interface SessionCommandOptions {
  store: Store;
  /** The session the agent is in; null before its first message creates it. */
  session: Session | null;
  /** The project: /sessions lists its sessions, /resume picks among them. Default: process.cwd(). */
  projectPath?: string;
  /** Where relative paths (/session export <file>) start and /restore writes files. Default: projectPath. */
  root?: string;
  /** The model's window for /debug context when nothing was built yet. Default: the session's, else 200,000. */
  contextWindow?: number;
  /** The API whose messages /debug context builds a context in. Default 'anthropic'. */
  contextFormat?: ContextFormat;
  /** The caller's model as a summarizer: /compact --apply needs one. */
  summarize?: Summarizer;
  /** The summarizer's model name, recorded with the summary. */
  summaryModel?: string;
  /** Turns /compact keeps verbatim. Default 3. */
  keepRecentTurns?: number;
  /** Dollars per million tokens by model, for /cost and /session info. */
  prices?: Prices;
  /** Colours for `output.text`: true for ANSI colours on a terminal. Default false. */
  color?: boolean;
  /** The width `output.text` is cut to. Default 100. */
  width?: number;
}

/** SessionCommandOutput is what a command says: `text` for a terminal, `data` for a program. */
export interface SessionCommandOutput {
  text: string;
  data: unknown;
}

/**
 * SessionCommandAction is what the app must do after a command, beyond showing its output:
 * - `open-session`: show this session instead (/resume <id>, /fork).
 * - `pick-session`: show a session picker over `sessions` (/resume with no id).
 * - `new-session`: start a new, empty session (/new, /session archive).
 * - `reload`: the session's branch moved without a new message (/rewind): read it again
 *   (usePersistentSession's refresh()) and redraw the transcript; `prompt` is the prompt
 *   taken back, for the app to offer for editing.
 * - `confirm`: ask `question`; on yes, run `line` (/compact, /restore).
 */
export type SessionCommandAction =
  | { type: 'open-session'; sessionId: string; reason: 'resume' | 'fork' }
  | { type: 'pick-session'; sessions: SessionInfo[] }
  | { type: 'new-session' }
  | { type: 'reload'; sessionId: string; prompt?: string }
  | { type: 'confirm'; question: string; line: string };

/**
 * SessionCommandErrorCode is why a command could not run: a code of the commands' own, or the
 * code of the SessionError that stopped it, or COMMAND_FAILED for any other failure.
 */
export type SessionCommandErrorCode =
  | 'UNKNOWN_COMMAND'
  | 'INVALID_COMMAND'
  | 'NO_SESSION'
  | 'NO_SUMMARIZER'
  | 'NOTHING_TO_REWIND'
  | 'FILE_EXISTS'
  | 'COMMAND_FAILED'
  | SessionErrorCode;

/** SessionCommandError is why a command could not run: a stable `code` and a message for the user. */
export interface SessionCommandError {
  code: SessionCommandErrorCode;
  message: string;
}

/**
 * SessionCommandResult: `handled` false means the line is not a command, and goes to the model.
 * A command that could not run has `error` (its text is in `output.text` too).
 */
export interface SessionCommandResult {
  handled: boolean;
  /** The command as typed, without its arguments: '/session info'. */
  command?: string;
  output?: SessionCommandOutput;
  action?: SessionCommandAction;
  error?: SessionCommandError;
}

/** SessionCommandSpec describes one command, for /help and completion lists. */
export interface SessionCommandSpec {
  /** '/session info'. */
  name: string;
  /** The arguments, as usage shows them: '[file]'. */
  args: string;
  summary: string;
  /** Whether it needs the current session. */
  needsSession: boolean;
}
