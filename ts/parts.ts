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
    if (parts.length === 1) return JSON.parse(parts[0]);
    const out: T[] = [];
    for (const part of parts) appendPart(out, part);
    return out;
  } catch (err) {
    if (err instanceof SyntaxError) native.verifySession(h);
    throw err;
  }
}

/** appendPart parses one part and appends its items to out. */
function appendPart<T>(out: T[], part: string): void {
  const items: T[] = JSON.parse(part);
  for (let i = 0; i < items.length; i++) out.push(items[i]);
}

/** readParts runs an async read of session h, collecting its parts as they arrive. */
export async function readParts<T>(h: Handle, read: (onPart: (part: string) => void) => Promise<void>): Promise<T[]> {
  const out: T[] = [];
  let failed: { error: unknown } | undefined;
  await read((part) => {
    if (failed) return;
    try {
      appendPart(out, part);
    } catch (error) {
      failed = { error };
    }
  });
  if (failed) {
    if (failed.error instanceof SyntaxError) native.verifySession(h);
    throw failed.error;
  }
  return out;
}
