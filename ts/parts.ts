/**
 * Messages cross from native code as parts: ASCII JSON strings, each an array of whole
 * messages of about a megabyte, so that an async read hands the event loop back between
 * parts and the JS thread parses one part while native code encodes the next.
 */

/** parseParts parses the parts a synchronous read returns into one array. */
export function parseParts<T>(parts: string[]): T[] {
  if (parts.length === 1) return JSON.parse(parts[0]);
  const out: T[] = [];
  for (const part of parts) appendPart(out, part);
  return out;
}

/** appendPart parses one part and appends its items to out. */
export function appendPart<T>(out: T[], part: string): void {
  const items: T[] = JSON.parse(part);
  for (let i = 0; i < items.length; i++) out.push(items[i]);
}

/** readParts runs an async read, collecting its parts as they arrive. */
export async function readParts<T>(read: (onPart: (part: string) => void) => Promise<void>): Promise<T[]> {
  const out: T[] = [];
  await read((part) => appendPart(out, part));
  return out;
}
