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
  return needsReplacer(value, 0) ? JSON.stringify(value, bytesToBase64) : JSON.stringify(value);
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
