import type { Context } from './context';
import type { Parsed } from './args';

/** Command is one `sessionkeep <name>` command, in its own file. */
export interface Command {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** The usage line, after `sessionkeep`. */
  usage: string;
  /** The command's own options, beside --db, --json and --help. */
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  /** The command may create the store: it runs when --db names a file that does not exist yet. */
  createsStore?: boolean;
  /** The option naming the store the command runs on, `db` unless it says otherwise. */
  storeOption?: string;
  run(ctx: Context, args: Parsed): Promise<void>;
}

/** Standalone is a command that needs no store and no addon (build-addon); it returns the exit status. */
export interface Standalone {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  run(args: Parsed): number;
}
