// node delta-child.mjs <db> <variant>
// Streams text deltas into a new session (delta i is deltaText(i)) from one synchronous loop,
// the way the JS side joins them before they cross, and prints one line { id, count }:
//   "loop-then-wait": deltas for ~50 ms, then waits 60 ms on a timer, prints (count: all of
//                     them), and idles until the parent kills it.
//   "killed-mid-loop": deltas without a pause; after ~150 ms prints how many it has ingested
//                     so far and goes on ingesting in the same synchronous loop until killed.
//   "work-after-deltas": 10 deltas with 8 ms of synchronous work after each (a parser or a
//                     tokenizer between network reads), prints, and goes on working
//                     synchronously, ingesting nothing more, until killed: the JS thread never
//                     gets back to the event loop after the last delta.
//   "exit-after-loop": deltas for ~20 ms, prints, then process.exit(0) in the same tick: the
//                      deltas still joined on the JS side must be recorded by the exit.
import { openStore } from './common.mjs';
import { deltaText } from './deltas.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, variant] = process.argv.slice(2);
const store = openStore(db);
const s = store.createSession({ projectPath: '/work/deltas' });
s.appendUserMessage('Stream a long answer');
s.ingest({ type: 'message_start', id: 'msg_deltas', model: 'claude-sonnet-4-5' });

const busyUntil = (t) => {
  while (performance.now() < t);
};
const print = (count) => process.stdout.write(JSON.stringify({ id: s.id, count }) + '\n'); // a pipe: written synchronously

let count = 0;
const start = performance.now();
if (variant === 'loop-then-wait' || variant === 'exit-after-loop') {
  const end = start + (variant === 'loop-then-wait' ? 50 : 20);
  while (performance.now() < end) s.ingest({ type: 'text', text: deltaText(count++) });
  if (variant === 'exit-after-loop') {
    print(count);
    process.exit(0);
  }
  setTimeout(() => {
    print(count);
    setInterval(() => {}, 1000); // stay alive: the parent kills this process
  }, 60);
} else if (variant === 'work-after-deltas') {
  for (; count < 10; count++) {
    s.ingest({ type: 'text', text: deltaText(count) });
    busyUntil(performance.now() + 8);
  }
  print(count);
  busyUntil(start + 10_000);
} else {
  const printAt = start + 150;
  const giveUp = start + 10_000;
  let printed = false;
  while (performance.now() < giveUp) {
    s.ingest({ type: 'text', text: deltaText(count++) });
    busyUntil(performance.now() + 0.01);
    if (!printed && performance.now() >= printAt) {
      print(count);
      printed = true;
    }
  }
}
