/**
 * Terminal output: colours only when the stream is a terminal (and NO_COLOR is unset, or
 * FORCE_COLOR is set), progress only on a terminal, and the terminal's width to cut text
 * to. The styles and cuts themselves are ts/render/style.ts's, shared with the slash commands.
 */
/** useColor says whether to colour what goes to stream. */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** width is the terminal's width, or a wide page when output is not a terminal. */
export function width(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns ? stream.columns : 160;
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
