// node prompt-child.mjs <db> <projectPath>
// Offers the project's latest session with promptResume() on this process's stdin and
// stderr, and prints RESULT:<id> for a resumed session or RESULT:null.
import { openStore, sk } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, projectPath] = process.argv.slice(2);
const store = openStore(db);
const session = await sk.promptResume(store, { projectPath });
process.stdout.write(`RESULT:${session ? session.id : 'null'}\n`);
store.close();
process.exit(0);
