import { width } from './term';

/** A bar over bytes: `at` is given how many bytes are done so far. */
export interface ByteProgress {
  at(bytesDone: number): void;
  done(): void;
}

const MB = 1024 * 1024;

/** megabytes writes a byte count in MB with one decimal. */
export function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/**
 * byteProgress returns a bar over `total` bytes labelled `label`, with the bytes done, the
 * total and the rate since it began: redrawn in place on a terminal; off one, only when
 * `always` is set (the CLI's --progress), a line at each tenth of the total. It draws
 * nothing otherwise.
 */
export function byteProgress(label: string, total: number, { stream = process.stderr, always = false }: { stream?: NodeJS.WriteStream; always?: boolean } = {}): ByteProgress {
  const tty = stream.isTTY === true;
  if ((!tty && !always) || total <= 0) return { at() {}, done() {} };
  const started = performance.now();
  let drawn = -1;
  let lastTenth = -1; // off a terminal, the last tenth written
  let lastQuarterSecond = -1; // on one, when it was last drawn
  const line = (done: number) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? `${(done / MB / seconds).toFixed(1)} MB/s` : '';
    return `${megabytes(done)} / ${megabytes(total)}  ${rate}`;
  };
  return {
    at(done) {
      done = Math.min(total, Math.max(0, done));
      if (!tty) {
        const tenth = Math.floor((done / total) * 10);
        if (tenth > lastTenth) {
          lastTenth = tenth;
          stream.write(`${label}: ${Math.round((done / total) * 100)}%  ${line(done)}\n`);
        }
        return;
      }
      const cols = Math.max(10, Math.min(40, width(stream) - label.length - 40));
      const filled = Math.round((done / total) * cols);
      const now = Math.floor(performance.now() / 250); // the rate changes: redraw at most 4 times a second
      if (filled === drawn && now === lastQuarterSecond && done < total) return;
      drawn = filled;
      lastQuarterSecond = now;
      stream.write(`\r${label} [${'='.repeat(filled)}${filled < cols ? '>' : ''}${' '.repeat(Math.max(0, cols - filled - 1))}] ${line(done)}\x1b[K`);
    },
    done() {
      if (tty) stream.write('\r\x1b[2K');
    },
  };
}
