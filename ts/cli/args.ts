import { parseArgs } from 'node:util';

/** UsageError is a command line that cannot be run; the CLI prints it with the usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The options every command takes, before or after the command's name. */
const COMMON = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Global is what comes before the command's name: the common options, --version, the name. */
export interface Global {
  /** The common options given before the name, as arguments to hand to the command's parse. */
  options: string[];
  version: boolean;
  help: boolean;
  /** The command's name, or undefined when there is none. */
  name?: string;
  /** What follows the name. */
  rest: string[];
}

/**
 * splitGlobal reads `[--db <path>] [--json] [--help] [--version] <command> ...`: the options
 * before the command's name are kept for the command's own parse, so that `--db x ls` and
 * `ls --db x` mean the same. An option before the name that is not a common one is refused.
 */
export function splitGlobal(argv: string[]): Global {
  const g: Global = { options: [], version: false, help: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-') {
      g.name = arg;
      g.rest = argv.slice(i + 1);
      return g;
    }
    if (arg === '--version' || arg === '-V') g.version = true;
    else if (arg === '--help' || arg === '-h') g.help = true;
    else if (arg === '--json') g.options.push(arg);
    else if (arg.startsWith('--db=')) g.options.push(arg);
    else if (arg === '--db') {
      if (i + 1 >= argv.length) throw new UsageError("option '--db <path>' argument missing");
      g.options.push(arg, argv[++i]);
    } else throw new UsageError(`unknown option ${JSON.stringify(arg)} before the command`);
  }
  return g;
}

/**
 * takesArguments tells from a command's usage line whether it takes arguments beside its
 * options: a `<placeholder>`, required or in `[...]`, that is not an option's value.
 */
export function takesArguments(usage: string): boolean {
  const afterName = usage.replace(/^\S+/, '');
  const withoutOptionValues = afterName.replace(/(^|[\s([|])--?[\w-]+[\s=]+<[^>]*>/g, '$1');
  return /<[^>]+>/.test(withoutOptionValues);
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** Parsed is a command line: its option values and positional arguments. */
export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** parse reads argv with the common options and the command's own. */
export function parse(argv: string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** intOption reads a non-negative integer option. */
export function intOption(p: Parsed, name: string, fallback: number): number {
  const v = p.values[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be a whole number, not ${JSON.stringify(v)}`);
  }
  return n;
}

/** stringOption reads a string option. */
export function stringOption(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** flag reads a boolean option. */
export function flag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}
