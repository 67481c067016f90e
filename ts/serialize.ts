/**
 * toJSON serialises content for the native layer. Bytes (Uint8Array, Buffer) anywhere in
 * it become base64 strings, and a media source of type "raw" becomes "base64", since the
 * provider APIs take no raw bytes.
 */
export function toJSON(value: unknown): string | undefined {
  return JSON.stringify(value, bytesToBase64);
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
