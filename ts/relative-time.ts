const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * relativeTime says how long ago `time` was, the way people say it: "just now",
 * "5 minutes ago", "2 hours ago", "yesterday", "3 days ago", "4 months ago". A time in the
 * future (clocks differ) is "just now".
 */
export function relativeTime(time: Date | string | number, now: Date = new Date()): string {
  const then = time instanceof Date ? time.getTime() : new Date(time).getTime();
  if (!Number.isFinite(then)) return 'unknown';
  const ago = now.getTime() - then;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return count(Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return count(Math.floor(ago / HOUR), 'hour');
  const days = Math.floor(ago / DAY);
  if (days === 1) return 'yesterday';
  if (days < 30) return count(days, 'day');
  if (days < 365) return count(Math.floor(days / 30), 'month');
  return count(Math.floor(days / 365), 'year');
}

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}
