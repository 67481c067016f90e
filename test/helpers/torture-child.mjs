// node torture-child.mjs <db> <seed> <turns>
// Streams the torture script (torture-script.mjs) of seed into a new session of db, one step
// per event-loop turn with short pauses, and after each step prints {i, t}: the step's
// index and the time it was recorded (stdout to a pipe is synchronous, so the line is out
// before the next step). First it prints {id}. It never flushes: the parent SIGKILLs it at
// a random point. With turns streamed to the end it prints {finished} and idles.
import { openStore } from './common.mjs';
import { script, apply, mulberry32 } from './torture-script.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 5) process.exit(0);

const [db, seed, turns] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
const steps = script(seed, turns);
const store = openStore(db);
const s = store.createSession({ projectPath: '/work/torture' });
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
out({ id: s.id });

const pace = mulberry32(seed ^ 0x5eed);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
for (let i = 0; i < steps.length; i++) {
  apply(s, steps[i]);
  out({ i, t: Date.now() });
  // Most steps follow within the same millisecond, as deltas do; some after a pause, so
  // that kills land between commits as well as inside them.
  if (steps[i].pause || pace() < 0.05) await pause(1 + Math.floor(pace() * 4));
  else await new Promise(setImmediate);
}
out({ finished: true });
setInterval(() => {}, 1000); // stay alive: the parent kills this process
