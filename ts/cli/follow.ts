import type { Context } from './context';
import { conversation } from './render';
import type { Session } from '../session';
import type { Envelope } from '../types';

/**
 * follow is `show --follow`: it prints the session's messages as they are committed, by any
 * process, like `tail -f`, until SIGINT or SIGTERM. A reply still streaming is printed once it
 * ends, whole; what was printed stays printed. With --json each message is one line of JSON.
 */
export async function follow(ctx: Context, session: Session, full: boolean): Promise<void> {
  let printed: Envelope[] = [];
  const print = async () => {
    const all = await session.envelopesAsync();
    const streaming = all.findIndex((e) => e.status === 'streaming');
    const ready = streaming < 0 ? all : all.slice(0, streaming);
    if (ready.length <= printed.length) return;
    if (ctx.json) {
      ctx.out(ready.slice(printed.length).map((e) => JSON.stringify(e) + '\n').join(''));
    } else {
      // Rendered whole, so that a tool result is labelled by the call made before it.
      const before = conversation(printed, ctx.style, full).length;
      ctx.out(conversation(ready, ctx.style, full).slice(before).join('\n') + '\n');
    }
    printed = ready;
  };
  let queue = print();
  await queue;
  await new Promise<void>((resolve) => {
    const stop = session.watch(() => {
      queue = queue.then(print, print);
    });
    const end = () => {
      stop();
      process.off('SIGINT', end);
      process.off('SIGTERM', end);
      queue.finally(resolve);
    };
    process.on('SIGINT', end);
    process.on('SIGTERM', end);
  });
}
