/**
 * How the kit writes times and token counts for people. Written out by hand rather than
 * with Intl: ICU versions differ in the spaces they put before "PM", and a terminal UI
 * should look the same on every Node.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * formatRelativeTime says when `time` was, as seed 004's session picker does, in local time:
 * "just now", "5 min ago", "Today 2:30 PM", "Yesterday", "Dec 23", "Dec 23, 2024".
 * A time in the future (another machine's clock) counts as "just now".
 */
export function formatRelativeTime(time: Date | string, now: Date = new Date()): string {
  const t = typeof time === 'string' ? new Date(time) : time;
  if (Number.isNaN(t.getTime())) return 'unknown';
  const ago = now.getTime() - t.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  const days = calendarDaysBetween(t, now);
  if (days === 0) return `Today ${clock(t)}`;
  if (days === 1) return 'Yesterday';
  const date = `${MONTHS[t.getMonth()]} ${t.getDate()}`;
  return t.getFullYear() === now.getFullYear() ? date : `${date}, ${t.getFullYear()}`;
}

/** calendarDaysBetween counts local midnights between a and b (0: the same day). */
function calendarDaysBetween(a: Date, b: Date): number {
  const dayA = new Date(a.getFullYear(), a.getMonth(), a.getDate());
  const dayB = new Date(b.getFullYear(), b.getMonth(), b.getDate());
  // Round: a day with a daylight-saving change is 23 or 25 hours long.
  return Math.round((dayB.getTime() - dayA.getTime()) / (24 * HOUR));
}

/** clock is the local time of day as "2:30 PM". */
function clock(t: Date): string {
  const h = t.getHours();
  const m = String(t.getMinutes()).padStart(2, '0');
  return `${h % 12 || 12}:${m} ${h < 12 ? 'AM' : 'PM'}`;
}

/** formatTokens writes a token count short: 950, 14.7k, 150k, 1.2M. */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  const abs = Math.abs(n);
  // The cut-offs are where rounding would print "1000" in the smaller unit.
  if (abs < 999.5) return String(Math.round(n));
  if (abs < 999_500) return short(n / 1000) + 'k';
  return short(n / 1_000_000) + 'M';
}

/** short keeps one decimal below 100 (none when it is 0), rounding half away from zero. */
function short(x: number): string {
  const sign = x < 0 ? -1 : 1;
  const abs = Math.abs(x);
  // toFixed would round 13.95 down: it is 13.9499… in binary.
  return String(sign * (abs < 99.95 ? Math.round(abs * 10) / 10 : Math.round(abs)));
}
