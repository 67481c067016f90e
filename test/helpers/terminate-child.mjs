// node terminate-child.mjs <dir> <workers>
// Starts workers one after another, each busy with Promise-returning calls on a session of
// its own, and terminates each mid-call. Prints "survived" if the process lives through it.
import { Worker } from 'node:worker_threads';
import path from 'node:path';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [dir, workers] = [process.argv[2], Number(process.argv[3])];
for (let i = 0; i < workers; i++) {
  const w = new Worker(new URL('./busy-worker.mjs', import.meta.url), {
    workerData: { db: path.join(dir, `busy-${i}.db`), messages: 1500 },
  });
  await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
  await new Promise((r) => setTimeout(r, 20 + (i % 4) * 5));
  await w.terminate();
}
await new Promise((r) => setTimeout(r, 200)); // let any work still running finish
process.stdout.write('survived\n');
