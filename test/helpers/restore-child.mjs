// node restore-child.mjs <db> <messagesFile>
// Restores the messages in messagesFile into a new session, prints its id, and exits
// without flushing or closing anything itself (the package's exit hook closes the store).
import fs from 'node:fs';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const store = openStore(process.argv[2]);
const session = store.createSession({ projectPath: '/work/restored' });
session.restoreMessages(JSON.parse(fs.readFileSync(process.argv[3], 'utf8')));
process.stdout.write(JSON.stringify({ id: session.id }) + '\n');
