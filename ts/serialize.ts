import { SessionError } from './errors';

/**
 * toJSON serialises content for the native layer. Bytes (Uint8Array, Buffer) anywhere in
 * it become base64 strings, and a media source of type "raw" becomes "base64", since the
 * provider APIs take no raw bytes.
 *
 * A replacer function makes JSON.stringify call back into JavaScript for every value,
 * which costs more than the stringify itself on a large tool output; so content is first
 * walked for bytes and raw sources (strings are not looked into), and stringified without
 * the replacer when it has none.
 */
export function toJSON(value: unknown): string | undefined {
  return needsReplacer(value, 0) ? encode(value, bytesToBase64) : encode(value);
}

/**
 * encode is JSON.stringify for what callers pass, with one error of its own: a value nested
 * so deeply that JSON.stringify runs out of stack (a RangeError, which callers cannot tell
 * from a bug) is a SessionError with code TOO_DEEP, thrown before anything is stored. A
 * circular value or a BigInt stays the TypeError JSON.stringify throws.
 */
export function encode(value: unknown, replacer?: (this: any, key: string, value: unknown) => unknown): string {
  try {
    return JSON.stringify(value, replacer);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new SessionError('The value nests too deeply to be stored as JSON (JavaScript ran out of stack encoding it); flatten it or store it as a string.', 'TOO_DEEP');
    }
    throw err;
  }
}

/** Strings at least this long cross apart from the JSON (see toJSONSplit). */
const largeString = 1024;

/**
 * toJSONSplit is toJSON for user content, with its long string values (tool output) left
 * out of the JSON: each is replaced by the placeholder "\u0000<i>" and returned in strings,
 * to cross as UTF-16 code units, which costs a copy where JSON.stringify and UTF-8 would
 * cost a pass each over every character. Content in which some string or key already
 * begins with U+0000 is not split, so a placeholder can never be mistaken.
 */
export function toJSONSplit(value: unknown): [json: string, strings: string[] | undefined] {
  const strings: string[] = [];
  if (!hasLargeStrings(value, 0)) return [toJSON(value)!, undefined];
  const bytes = needsReplacer(value, 0);
  const json = encode(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    if (typeof v === 'string' && v.length >= largeString) {
      strings.push(v);
      return `\u0000${strings.length - 1}`;
    }
    return bytes ? bytesToBase64.call(this, key, v) : v;
  });
  return [json, strings];
}

/**
 * hasLargeStrings reports whether value holds a string worth splitting off and no string or
 * key beginning with U+0000 (a value only JSON.stringify can tell apart from a placeholder).
 */
function hasLargeStrings(value: unknown, depth: number): boolean {
  let found = false;
  const walk = (v: unknown, d: number): boolean => {
    if (typeof v === 'string') {
      if (v.length > 0 && v.charCodeAt(0) === 0) return false;
      if (v.length >= largeString) found = true;
      return true;
    }
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return true;
    if (d > maxDepth || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!walk(v[i], d + 1)) return false;
      return true;
    }
    for (const key in v as Record<string, unknown>) {
      if (key.length > 0 && key.charCodeAt(0) === 0) return false;
      if (!walk((v as Record<string, unknown>)[key], d + 1)) return false;
    }
    return true;
  };
  return walk(value, depth) && found;
}

/** How deep needsReplacer looks before it lets the replacer decide. */
const maxDepth = 64;

function needsReplacer(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > maxDepth || ArrayBuffer.isView(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (needsReplacer(value[i], depth + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (key === 'source' && isRecord(v) && v.type === 'raw') return true;
    if (needsReplacer(v, depth + 1)) return true;
  }
  return false;
}

function bytesToBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (original instanceof Uint8Array) {
    return Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64');
  }
  if (key === 'source' && isRecord(value) && value.type === 'raw') {
    return { ...value, type: 'base64' };
  }
  return value;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
