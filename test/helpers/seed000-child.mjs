// node seed000-child.mjs <db>
// Records seed 000 as stream chunks, waits for flush, prints the session id with what this
// process reads back (messages, turns, token tracker, envelopes) as one JSON line, and exits.
import { openStore } from './common.mjs';
import { recordSeed000 } from './fixtures.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const store = openStore(process.argv[2]);
const session = store.createSession({ projectPath: '/work/seed000', provider: 'claude' });
recordSeed000(session);
await session.flush();
process.stdout.write(JSON.stringify({
  id: session.id,
  messages: session.messages(),
  turns: session.turns(),
  tokenTracker: session.tokenTracker(),
  envelopes: session.envelopes(),
}) + '\n');
