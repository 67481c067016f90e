import { parseResumeArgs, type ResumeRequest } from 'sessionkeep';

export interface Args {
  /** --continue, --resume [id], --new, or none of them (a new session). */
  request: ResumeRequest;
  /** The database; default: sessionkeep's ($SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db). */
  db?: string;
  help: boolean;
}

export const USAGE = `Usage: agent-modal [--continue | --resume [id] | --new] [--db <path>]

  -c, --continue     go on with the latest session of this folder
  -r, --resume [id]  resume a session by id or id prefix; without one, pick it from a list
  -n, --new          start a new session (the default)
      --db <path>    the sessionkeep database (default: $SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db)
  -h, --help         this text

Without ANTHROPIC_API_KEY a scripted model plays the assistant, offline; it really runs the
tools (list_dir, read_file, grep) in this folder. With it, the agent talks to Claude
($ANTHROPIC_MODEL, default claude-sonnet-4-6).`;

/**
 * parseArgs reads the command line: the resume flags as every sessionkeep app reads them
 * (parseResumeArgs), then this program's own. It throws an Error whose message is for the user.
 */
export function parseArgs(argv: string[]): Args {
  const { request, rest } = parseResumeArgs(argv);
  const args: Args = { request, help: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '--db') {
      args.db = rest[++i];
      if (!args.db) throw new Error('--db needs a path');
    } else throw new Error(`unknown argument ${JSON.stringify(arg)}`);
  }
  return args;
}
