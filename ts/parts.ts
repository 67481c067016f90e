import { native, Handle } from './native';

/**
 * Messages cross from native code as parts: ASCII JSON strings, each an array of whole
 * messages (up to 127 KB for a synchronous read, under V8's large-object size, about 64 KB
 * for an async one), so that an async read hands the event loop back between parts and the
 * JS thread parses one part while native code encodes the next.
 *
 * Stored blocks cross as the JSON they were stored as, never decoded on the way, so a
 * damaged block shows first as a part that does not parse; the session is then checked
 * natively, which marks it corrupted and throws SessionError SESSION_CORRUPT saying which
 * block is damaged.
 */

/** parseParts parses the parts a synchronous read of session h returns into one array. */
export function parseParts<T>(h: Handle, parts: string[]): T[] {
  try {
    return joinParts<T>(parts);
  } catch (err) {
    if (err instanceof SyntaxError) native.verifySession(h);
    throw err;
  }
}

/**
 * joinParts parses parts, JSON arrays in order (a read's messages, a listing's sessions),
 * into one array.
 */
export function joinParts<T>(parts: string[]): T[] {
  if (parts.length === 1) return JSON.parse(parts[0]);
  const out: T[] = [];
  for (const part of parts) appendPart(out, part);
  return out;
}

/** appendPart parses one part and appends its items to out. */
function appendPart<T>(out: T[], part: string): void {
  const items: T[] = JSON.parse(part);
  for (let i = 0; i < items.length; i++) out.push(items[i]);
}

/**
 * readParts runs an async read of session h, keeping each part's parsed array as it arrives
 * and joining them once at the end. Pushing every message into one growing array as it
 * came left the 20,000-message restore's event-loop p99 higher, 0.84 ms in the median of
 * 50 pairs, and its wall time 4 % longer (bench/README.md, "Restore's event-loop delay");
 * the scavenges copy the same bytes either way, so most likely it is what they walk: that
 * array, old after the first one, holds a remembered slot for every young message pushed.
 */
export async function readParts<T>(h: Handle, read: (onPart: (part: string) => void) => Promise<void>): Promise<T[]> {
  const parsed: T[][] = [];
  let failed: { error: unknown } | undefined;
  await read((part) => {
    if (failed) return;
    try {
      parsed.push(JSON.parse(part));
    } catch (error) {
      failed = { error };
    }
  });
  if (failed) {
    if (failed.error instanceof SyntaxError) native.verifySession(h);
    throw failed.error;
  }
  return concatArrays(parsed);
}

// concatBatch is how many arrays one concat call takes: spread as arguments, and a session
// of a few million messages has more parts than a call may have arguments.
const concatBatch = 8192;

/** concatArrays joins arrays, in order, into one. */
export function concatArrays<T>(arrays: T[][]): T[] {
  if (arrays.length === 1) return arrays[0];
  let out: T[] = [];
  for (let i = 0; i < arrays.length; i += concatBatch) out = out.concat(...arrays.slice(i, i + concatBatch));
  return out;
}
