import { UsageError, type Parsed } from './args';

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
