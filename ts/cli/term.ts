/**
 * Terminal output: colours only when the stream is a terminal (and NO_COLOR is unset, or
 * FORCE_COLOR is set), progress only on a terminal, and text cut to the terminal's width.
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

/** useColor says whether to colour what goes to stream. */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
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

/** width is the terminal's width, or a wide page when output is not a terminal. */
export function width(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns ? stream.columns : 160;
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

/** Progress draws a bar on stderr while long work runs, when stderr is a terminal. */
export interface Progress {
  tick(n?: number): void;
  done(): void;
}

/** progress returns a bar over `total` steps labelled `label`; it draws nothing off a terminal. */
export function progress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total <= 1) return { tick() {}, done() {} };
  let count = 0;
  let drawn = -1;
  const draw = () => {
    const cols = Math.max(10, Math.min(40, width(stream) - label.length - 20));
    const filled = Math.round((count / total) * cols);
    if (filled === drawn && count < total) return;
    drawn = filled;
    stream.write(`\r${label} [${'='.repeat(filled)}${filled < cols ? '>' : ''}${' '.repeat(Math.max(0, cols - filled - 1))}] ${count}/${total}`);
  };
  draw();
  return {
    tick(n = 1) {
      count = Math.min(total, count + n);
      draw();
    },
    done() {
      stream.write('\r\x1b[2K');
    },
  };
}

/**
 * whileWaiting shows `label` with a spinner on stderr, when it is a terminal, for as long
 * as work takes beyond a moment, and clears it after.
 */
export async function whileWaiting<T>(label: string, work: Promise<T>, stream: NodeJS.WriteStream = process.stderr): Promise<T> {
  if (!stream.isTTY) return work;
  const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
  let i = 0;
  let shown = false;
  const timer = setInterval(() => {
    shown = true;
    stream.write(`\r${frames[i++ % frames.length]} ${label}`);
  }, 120);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    if (shown) stream.write('\r\x1b[2K');
  }
}
