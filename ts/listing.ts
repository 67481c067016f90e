import type { SessionInfo } from './types';

/**
 * listingFromParts makes the sessions of a synchronous listing from the parts it crosses
 * in: JSON arrays of values, the first beginning with the names of the fields (an array of
 * strings), then each session's values of them in that order, null for a field the
 * session has no value of (left out of its object, as a listing of objects leaves it).
 * JSON.parse of W4's 1,000 sessions as values and making the objects took 0.25 ms after a
 * GC, against 0.42 ms parsing the same sessions as objects: no names to read for every
 * session (bench/README.md, round 6).
 */
export function listingFromParts(parts: string[]): Partial<SessionInfo>[] {
  const out: Partial<SessionInfo>[] = [];
  let names: string[] = [];
  let make: Maker = () => ({});
  for (let p = 0; p < parts.length; p++) {
    const values: unknown[] = JSON.parse(parts[p]);
    let i = 0;
    if (p === 0) {
      names = values[0] as string[];
      make = makerFor(names);
      i = 1;
    }
    const n = names.length;
    for (; i + n <= values.length; i += n) out.push(make(values, i));
  }
  return out;
}

/** Maker makes one session's object from its values, values[at] on. */
type Maker = (values: unknown[], at: number) => Partial<SessionInfo>;

/** makers holds the maker of each set of names listed so far, by the names joined. */
const makers = new Map<string, Maker>();

/** makersKept bounds makers: a caller listing ever other fields keeps no more than these. */
const makersKept = 64;

/**
 * makerFor returns the maker of objects of names. It is a function made for them, one
 * store of a constant name per field, so V8 makes every object of the listing with the
 * same map: 0.25 ms for W4's listing, against 0.31 ms storing by the name read from the
 * array. The names are the addon's, each written into the code as a JSON string; where
 * code cannot be made from strings (--disallow-code-generation-from-strings), the stores
 * go by the names read from the array.
 */
function makerFor(names: string[]): Maker {
  const key = names.join(',');
  let make = makers.get(key);
  if (make) return make;
  try {
    const stores = names.map((name, j) => `v = a[i + ${j}]; if (v !== null) o[${JSON.stringify(name)}] = v;`);
    make = new Function('a', 'i', `const o = {}; let v;\n${stores.join('\n')}\nreturn o;`) as Maker;
  } catch {
    make = (values, at) => {
      const info: Record<string, unknown> = {};
      for (let j = 0; j < names.length; j++) {
        const v = values[at + j];
        if (v !== null) info[names[j]] = v;
      }
      return info as Partial<SessionInfo>;
    };
  }
  if (makers.size >= makersKept) makers.clear();
  makers.set(key, make);
  return make;
}
