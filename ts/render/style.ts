/**
 * Styles of text for people: ANSI colours when enabled, plain text otherwise, and the cuts
 * and padding of columns. The CLI and the in-session commands render with them.
 */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const sgr = (on: number, off: number) => (s: string) => `\x1b[${on}m${s}\x1b[${off}m`;
const plain = (s: string) => s;

/** style returns ANSI styles when enabled, identity functions otherwise. */
export function style(enabled: boolean): Style {
  if (!enabled) return { bold: plain, dim: plain, red: plain, yellow: plain, green: plain, cyan: plain, magenta: plain };
  return {
    bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39), cyan: sgr(36, 39), magenta: sgr(35, 39),
  };
}

/** cut shortens s to at most n characters, ending with '…' when it was cut. */
export function cut(s: string, n: number): string {
  const chars = [...s];
  if (chars.length <= n) return s;
  return n <= 1 ? '…'.slice(0, n) : chars.slice(0, n - 1).join('') + '…';
}

/** pad pads s with spaces to n characters. */
export function pad(s: string, n: number): string {
  const len = [...s].length;
  return len >= n ? s : s + ' '.repeat(n - len);
}

/** padStart pads s on the left to n characters (numbers in columns). */
export function padStart(s: string, n: number): string {
  const len = [...s].length;
  return len >= n ? s : ' '.repeat(n - len) + s;
}
