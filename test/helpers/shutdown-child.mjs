// node shutdown-child.mjs <db> <mode>
// Opens a session and prints {id} once it is ready for the parent's signal:
//   stream:      an assistant reply is streaming (no done), so a signal cuts it off
//   idle:        the session is open and idle, everything complete
//   own-handler: as stream, but the app has its own SIGINT handler: on SIGINT it prints
//                "handled", goes on recording, and exits by itself when the parent closes stdin
//   no-signals:  as stream, with handleSignals(false)
import { openStore, sk } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, mode] = process.argv.slice(2);
if (mode === 'no-signals') sk.handleSignals(false);
const store = openStore(db);
const s = store.createSession({ projectPath: '/work/shutdown' });
s.appendUserMessage('Explain the build');
if (mode === 'idle') {
  s.ingest({ type: 'text', text: 'It compiles Go, then TypeScript.' });
  s.ingest({ type: 'done' });
} else {
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'text', text: 'The build runs in two ' });
}
if (mode === 'own-handler') {
  process.on('SIGINT', () => {
    s.ingest({ type: 'text', text: 'steps; still going after SIGINT.' });
    s.ingest({ type: 'done' });
    process.stdout.write('handled\n');
  });
  process.stdin.resume();
  process.stdin.on('end', () => { s.close(); process.exit(0); });
} else {
  setInterval(() => {}, 1000); // idle until signalled
}
// The writes are queued, not yet committed: the signal path must commit them.
process.stdout.write(JSON.stringify({ id: s.id }) + '\n');
