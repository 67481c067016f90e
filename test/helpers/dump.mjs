// node dump.mjs <db> <sessionId> <outFile>
// Reopens a session in this (separate) process and writes everything it shows to outFile.
import fs from 'node:fs';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, id, out] = process.argv.slice(2);
const store = openStore(db);
const session = store.openSession(id);
const dump = {
  messages: session.messages(),
  envelopes: session.envelopes(),
  turns: session.turns(),
  tokenTracker: session.tokenTracker(),
  sessions: store.listSessions(),
};
fs.writeFileSync(out, JSON.stringify(dump));
session.close();
store.close();
