// node reader-child.mjs <db>
// A reader in a separate process: for each line "<sessionId>" on stdin it reads that session
// from its own store on db at once and prints one line { messages, envelopes }. Prints
// "ready" first. It lets a test ask another process what is readable at a precise moment,
// without the start-up time of a new process.
import readline from 'node:readline';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const store = openStore(process.argv[2]);
process.stdout.write('ready\n');
const sessions = new Map();
for await (const id of readline.createInterface({ input: process.stdin })) {
  if (!sessions.has(id)) sessions.set(id, store.openSession(id));
  const s = sessions.get(id);
  const envelopes = s.envelopes();
  process.stdout.write(JSON.stringify({ messages: s.messages(), envelopes }) + '\n');
}
store.close();
