import { argTypeError } from './errors';

/**
 * RedactOptions choose what a store redacts in tool inputs and outputs before they are
 * stored. `patterns` are the caller's: a RegExp (RE2 syntax, run in Go: no lookaround or
 * backreferences; flags i, m and s apply) or a string found as it is. `builtin` (default
 * true) adds the built-in secrets: provider API keys, bearer tokens, private keys, .env
 * assignments.
 */
export interface RedactOptions {
  patterns?: readonly (RegExp | string)[];
  builtin?: boolean;
}

/**
 * redactJSON serialises the redact option for native code, which compiles the patterns
 * (SessionError INVALID_ARGUMENT for one Go cannot); undefined when redaction is off.
 */
export function redactJSON(redact: boolean | RedactOptions | undefined): string | undefined {
  if (redact === undefined || redact === false) return undefined;
  if (redact === true) return JSON.stringify({ builtin: true });
  if (typeof redact !== 'object' || redact === null) throw argTypeError('options.redact', 'a boolean or an object');
  const { patterns = [], builtin = true } = redact;
  if (!Array.isArray(patterns)) throw argTypeError('options.redact.patterns', 'an array of RegExp and strings');
  if (typeof builtin !== 'boolean') throw argTypeError('options.redact.builtin', 'a boolean');
  return JSON.stringify({
    builtin,
    patterns: patterns.map((p) => {
      if (p instanceof RegExp) return { source: p.source, flags: p.flags };
      if (typeof p === 'string') return { source: p, literal: true };
      throw argTypeError('options.redact.patterns', 'an array of RegExp and strings');
    }),
  });
}
