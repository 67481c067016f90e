import type { SessionInfo } from './types';

/**
 * listingFromParts makes the sessions of a listing, sync or async, from the parts it
 * crosses in: JSON arrays of values, the first beginning with the names of the fields (an
 * array of strings), then each session's values of them in that order, null for a field
 * the session has no value of (left out of its object).
 * JSON.parse of W4's 1,000 sessions as values and making the objects took 0.31 ms after a
 * GC, against 0.42 ms parsing the same sessions as objects: no names to read for every
 * session. The objects are made by stores of the names read from the first part: a
 * function generated for the names (new Function, one store of a constant name per field)
 * made them in 0.25 ms in a loop of listings, but in the benchmark's one cold call after a
 * GC the whole listing took 2.5 ms with it against 1.9 (bench/README.md, round 6).
 */
export function listingFromParts(parts: string[]): Partial<SessionInfo>[] {
  const out: Partial<SessionInfo>[] = [];
  let names: string[] = [];
  for (let p = 0; p < parts.length; p++) {
    const values: unknown[] = JSON.parse(parts[p]);
    let i = 0;
    if (p === 0) {
      names = values[0] as string[];
      i = 1;
    }
    const n = names.length;
    for (; i + n <= values.length; i += n) {
      const info: Record<string, unknown> = {};
      for (let j = 0; j < n; j++) {
        const v = values[i + j];
        if (v !== null) info[names[j]] = v;
      }
      out.push(info as Partial<SessionInfo>);
    }
  }
  return out;
}
