import type { Readable, Writable } from 'node:stream';
import type { Store } from './store';
import type { Session } from './session';
import type { CreateSessionOptions, SessionInfo } from './types';
import type { PriceOptions, ResumeSummary } from './management-types';
import { argTypeError, SessionError } from './errors';

/**
 * ResumeRequest is what the command line asked for: `--continue` (the latest session of the
 * project), `--resume [id]` (a session by id or id prefix, or a picker without one), `--new`,
 * or nothing (`default`: the app decides, for instance with promptResume()).
 */
export type ResumeRequest =
  | { mode: 'continue' }
  | { mode: 'resume'; id?: string }
  | { mode: 'new' }
  | { mode: 'default' };

/**
 * parseResumeArgs finds -c/--continue, -r/--resume [id] (also --resume=<id>) and -n/--new in
 * argv, and returns the request with the arguments left over. An id is the word after
 * --resume unless it starts with '-'. Two of them at once is an error.
 */
export function parseResumeArgs(argv: readonly string[]): { request: ResumeRequest; rest: string[] } {
  if (!Array.isArray(argv)) throw argTypeError('argv', 'an array of strings');
  const found: ResumeRequest[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-c' || a === '--continue') found.push({ mode: 'continue' });
    else if (a === '-n' || a === '--new') found.push({ mode: 'new' });
    else if (a.startsWith('--resume=')) found.push({ mode: 'resume', id: a.slice('--resume='.length) || undefined });
    else if (a === '-r' || a === '--resume') {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        found.push({ mode: 'resume', id: next });
        i++;
      } else {
        found.push({ mode: 'resume' });
      }
    } else rest.push(a);
  }
  if (found.length > 1) throw new SessionError('give only one of --continue, --resume and --new', 'INVALID_ARGUMENT');
  return { request: found[0] ?? { mode: 'default' }, rest };
}

export interface ResolveSessionOptions extends CreateSessionOptions, PriceOptions {
  /** How many sessions a picker is offered; default 50. */
  pickerLimit?: number;
}

/**
 * Resolution is what to do: go on with a session (`resumed`, with its summary), start one
 * (`created`; `nothingToContinue` when --continue found no session of the project), or show
 * a picker over `sessions`, newest first, for --resume without an id.
 */
export type Resolution =
  | { action: 'resumed'; session: Session; summary: ResumeSummary }
  | { action: 'created'; session: Session; nothingToContinue?: true }
  | { action: 'pick'; sessions: SessionInfo[] };

/**
 * resolveSession carries out a ResumeRequest on a store: --continue opens the latest session
 * of `projectPath` (default: the working directory), --resume <id> the one named, --new and
 * `default` create one, and --resume without an id returns the picker's sessions.
 * Errors of findSession() (SESSION_NOT_FOUND, AMBIGUOUS_ID) are thrown as they are.
 */
export function resolveSession(store: Store, request: ResumeRequest, options: ResolveSessionOptions = {}): Resolution {
  const { pickerLimit = 50, prices, ...create } = options;
  const projectPath = create.projectPath ?? process.cwd();
  const resumed = (session: Session): Resolution => ({ action: 'resumed', session, summary: session.resumeSummary({ prices }) });
  switch (request.mode) {
    case 'continue': {
      const latest = store.latestSession(projectPath);
      if (latest) return resumed(latest);
      return { action: 'created', session: store.createSession({ ...create, projectPath }), nothingToContinue: true };
    }
    case 'resume':
      if (request.id) return resumed(store.findSession(request.id));
      return { action: 'pick', sessions: store.listSessions({ projectPath, limit: pickerLimit }) };
    default:
      return { action: 'created', session: store.createSession({ ...create, projectPath }) };
  }
}

export interface PromptResumeOptions extends PriceOptions {
  /** Whose latest session to offer; default: the working directory. */
  projectPath?: string;
  /** Default process.stdin. When it is not a terminal, the session is resumed without asking. */
  input?: Readable & { isTTY?: boolean };
  /** Where the summary and the question go; default process.stderr. */
  output?: Writable;
}

/**
 * promptResume offers the latest session of the project (seed 003): it prints the session's
 * resume summary and asks "Resume this session? [Y/n]". Yes (or just Enter, or the end of
 * input) opens and returns it; no returns null, for the app to start a new one. When input is
 * not a terminal (a pipe, a script, CI) it resumes without asking, and says so. null also
 * when the project has no session.
 */
export async function promptResume(store: Store, options: PromptResumeOptions = {}): Promise<Session | null> {
  const { projectPath = process.cwd(), input = process.stdin, output = process.stderr, prices } = options;
  const latest = store.latestSession(projectPath);
  if (!latest) return null;
  output.write(latest.resumeSummary({ prices }).text + '\n');
  if (!input.isTTY) {
    output.write('Resuming it (input is not a terminal).\n');
    return latest;
  }
  // Required on first use: an app that never prompts does not pay for readline at load.
  const readline = require('node:readline/promises') as typeof import('node:readline/promises');
  const rl = readline.createInterface({ input, output, terminal: true });
  const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  const answer = await Promise.race([rl.question('Resume this session? [Y/n] '), closed]);
  rl.close();
  if (answer !== null && /^n(o)?$/i.test(answer.trim())) {
    latest.close();
    return null;
  }
  return latest;
}
