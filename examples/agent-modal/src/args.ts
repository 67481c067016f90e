/** How the agent starts, from its command line (seed 004, phase 4). */
export type Start =
  | { kind: 'new' }
  | { kind: 'continue' }
  | { kind: 'resume'; id?: string }
  | { kind: 'help' };

export interface Args {
  start: Start;
  /** The database; default: sessionkeep's ($SESSIONKEEP_DB, else ~/.sessionkeep/sessions.db). */
  db?: string;
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

/** parseArgs reads the command line; it throws an Error whose message is for the user. */
export function parseArgs(argv: string[]): Args {
  let start: Start | undefined;
  let db: string | undefined;
  const choose = (s: Start) => {
    if (start) throw new Error(`${flagOf(start)} and ${flagOf(s)} cannot be used together`);
    start = s;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case '-c': case '--continue': choose({ kind: 'continue' }); break;
      case '-n': case '--new': choose({ kind: 'new' }); break;
      case '-h': case '--help': return { start: { kind: 'help' } };
      case '-r': case '--resume': {
        const next = argv[i + 1];
        const id = next !== undefined && !next.startsWith('-') ? next : undefined;
        if (id !== undefined) i++;
        choose({ kind: 'resume', id });
        break;
      }
      case '--db':
        db = argv[++i];
        if (!db) throw new Error('--db needs a path');
        break;
      default:
        throw new Error(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  return { start: start ?? { kind: 'new' }, db };
}

function flagOf(s: Start): string {
  return `--${s.kind}`;
}
