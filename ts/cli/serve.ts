import { spawn } from 'node:child_process';
import type { Command } from './command';
import { UsageError, flag, intOption } from './args';
import { pricesOption } from './prices';
import { startServer } from '../serve/server';

/**
 * serve runs the web viewer on 127.0.0.1 until SIGINT or SIGTERM, and prints the one URL
 * (with its token) that opens it.
 */
export const serve: Command = {
  name: 'serve',
  summary: 'browse every session in a local web viewer, with usage charts',
  usage: 'serve [--port n] [--no-open] [--prices <file>]',
  options: { port: { type: 'string' }, 'no-open': { type: 'boolean' }, prices: { type: 'string' } },
  async run(ctx, args) {
    const port = intOption(args, 'port', 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}`);
    let viewer;
    try {
      viewer = await startServer(ctx.store, { port, prices: pricesOption(args) });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES') throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${e.message}`);
      throw err;
    }
    ctx.out(`sessionkeep serve: ${viewer.url}\n`);
    if (!flag(args, 'no-open')) openBrowser(viewer.url);
    await untilStopped();
    await viewer.close();
  },
};

/** untilStopped resolves on SIGINT or SIGTERM; main then closes the store and exits 0. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * openBrowser opens the URL with xdg-open on a desktop session; elsewhere (a server, a
 * container, CI) the printed URL is the way in, so nothing is tried. spawn looks xdg-open up
 * in PATH itself; without one it reports ENOENT as an 'error' event, which is ignored.
 */
function openBrowser(url: string): void {
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
