/** formatInt writes n with thousands separators: 45,234. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
