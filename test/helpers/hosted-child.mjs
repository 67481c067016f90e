// node hosted-child.mjs <db> <key>
// A hosted agent's run: opens its session by key, records a prompt and a reply, commits a
// pubsub checkpoint and the SDK session id, keeps a plain session open too, prints the ids
// and exits normally without closing anything (the package's exit hook closes the store).
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, key] = process.argv.slice(2);
const store = openStore(db);
const s = store.sessionByKey(key, { create: true });
s.appendUserMessage('@claude summarise the channel');
s.ingest({ type: 'text', text: 'Working on it.' });
s.commitCheckpoint(42);
s.ingest({ type: 'done' });
s.updateSdkSession('sdk-session-abc');
s.storeMessage('user', 'summarise the channel');
s.storeMessage('assistant', 'Working on it.');
const plain = store.createSession({ projectPath: '/work/plain' });
plain.appendUserMessage('an ordinary session, idle at exit');
process.stdout.write(JSON.stringify({ id: s.id, plain: plain.id }) + '\n');
