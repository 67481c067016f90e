// Numbers and times as people read them.

const whole = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** formatCount is a whole number with thousands separators: 12,345. */
export function formatCount(n: number | undefined | null): string {
  return whole.format(n ?? 0);
}

/** formatTokens is a token count made short: 12.3K. */
export function formatTokens(n: number | undefined | null): string {
  return compact.format(n ?? 0);
}

/** formatCost is dollars with cents, or a dash when unknown. */
export function formatCost(usd: number | undefined | null): string {
  return usd === undefined || usd === null ? '–' : '$' + usd.toFixed(usd < 1 ? 4 : 2);
}

/** formatTime is an ISO time as local date and minutes: 2026-01-22 21:38. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** countOf is a count with its noun, singular for one: "1 message", "2,000 messages". */
export function countOf(n: number | undefined | null, noun: string): string {
  return `${formatCount(n)} ${n === 1 ? noun : noun + 's'}`;
}
