import { parseArgs } from 'node:util';

/** UsageError is a command line that cannot be run; the CLI prints it with the usage, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The options every command takes. */
const COMMON = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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
