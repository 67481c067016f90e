import path from 'node:path';
import { SessionError, argTypeError } from '../errors';
import { Store } from '../store';
import { Session } from '../session';
import { style } from '../render/style';
import { CommandError, specOf, type CommandContext, type SessionCommand } from './command';
import { isCommandLine, words } from './parse';
import type { SessionCommandErrorCode, SessionCommandOptions, SessionCommandResult, SessionCommandSpec } from './types';
import { help } from './help';
import { sessions, sessionsAll } from './sessions';
import { sessionArchive, sessionExport, sessionInfo } from './session';
import { compact, compactApply } from './compact';
import { debugContext } from './debug-context';
import { newSession, resume } from './navigation';
import { rename } from './rename';
import { fork, rewind } from './branches';
import { files, restore } from './files';
import { cost } from './cost';

/** COMMANDS in the order /help lists them. A new command is a file here and a line in this list. */
const COMMANDS: readonly SessionCommand[] = [
  help, sessions, sessionsAll, resume, newSession, sessionInfo, rename, sessionExport, sessionArchive,
  compact, compactApply, debugContext, cost, rewind, fork, files, restore,
];

/** sessionCommands lists the commands runSessionCommand knows, for help screens and completion. */
export function sessionCommands(): SessionCommandSpec[] {
  return COMMANDS.map(specOf);
}

/**
 * completeSessionCommand is the commands that fit what the user has typed so far: every one
 * for "/", those starting with it ("/se": /sessions, /session info, …), or the one being given
 * its arguments ("/rename Fix"). Nothing for a line that is not a command.
 */
export function completeSessionCommand(input: string): SessionCommandSpec[] {
  const typed = input.trimStart().toLowerCase().replace(/\s+/g, ' ');
  if (typed !== '/' && !isCommandLine(typed)) return [];
  return sessionCommands().filter((c) => c.name.startsWith(typed) || typed.startsWith(`${c.name} `));
}

/**
 * runSessionCommand runs one line of the user's input if it is a session command (seed 004's
 * /sessions, /session info, /compact, /debug context, …; /help lists them). A line that is not
 * a command (no leading "/", or a path such as "/etc/hosts …") comes back `handled: false`,
 * for the agent to send to the model. A command that cannot run comes back with `error`
 * (a stable code and a message, also in `output.text`); it never throws for what the user typed.
 */
export async function runSessionCommand(line: string, options: SessionCommandOptions): Promise<SessionCommandResult> {
  if (typeof line !== 'string') throw argTypeError('line', 'a string');
  const ctx = contextOf(options);
  if (!isCommandLine(line)) return { handled: false };
  const typed = words(line.trim());
  const found = match(typed);
  const name = found?.command.name ?? typed[0];
  try {
    if (!found) throw notACommand(typed[0]);
    const reply = await found.command.run(typed.slice(found.length), ctx);
    return { handled: true, command: name, output: { text: reply.text, data: reply.data }, ...(reply.action && { action: reply.action }) };
  } catch (err) {
    const error = { code: codeOf(err), message: err instanceof Error ? err.message : String(err) };
    return { handled: true, command: name, output: { text: ctx.style.red(error.message), data: null }, error };
  }
}

/** match finds the command whose name is the most words of what was typed. */
function match(typed: string[]): { command: SessionCommand; length: number } | null {
  let best: { command: SessionCommand; length: number } | null = null;
  for (const command of COMMANDS) {
    const nameWords = command.name.split(' ');
    const fits = nameWords.every((w, i) => typed[i]?.toLowerCase() === w);
    if (fits && nameWords.length > (best?.length ?? 0)) best = { command, length: nameWords.length };
  }
  return best;
}

/** notACommand is the error for an unknown name, listing what there is. */
function notACommand(first: string): CommandError {
  const word = first.toLowerCase();
  const related = COMMANDS.filter((c) => c.name.split(' ')[0] === word);
  if (related.length > 0) {
    return new CommandError('INVALID_COMMAND', `${first} needs one of: ${related.map((c) => c.name.slice(word.length + 1) + (c.args ? ` ${c.args}` : '')).join(', ')}.`);
  }
  const names = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
  return new CommandError('UNKNOWN_COMMAND', `Unknown command ${first}. Commands: ${names.join(' ')} (/help says what each does).`);
}

function codeOf(err: unknown): SessionCommandErrorCode {
  return err instanceof SessionError || err instanceof CommandError ? err.code : 'COMMAND_FAILED';
}

/** contextOf checks the options (a program's mistakes throw) and fills in their defaults. */
function contextOf(options: SessionCommandOptions): CommandContext {
  if (typeof options !== 'object' || options === null || !(options.store instanceof Store)) {
    throw argTypeError('options', 'an object with a "store" (and the "session" the agent is in, or null)');
  }
  const session = options.session ?? null;
  if (session !== null && !(session instanceof Session)) throw argTypeError('options.session', 'a Session or null');
  const projectPath = options.projectPath ?? process.cwd();
  return {
    store: options.store,
    session,
    options,
    projectPath,
    root: path.resolve(options.root ?? projectPath),
    style: style(options.color === true),
    width: options.width ?? 100,
    commands: COMMANDS,
  };
}

