// across.mjs wrote the store that v9-across-upgrade.sql dumps, once: old-writer.mjs (copied
// into a checkout of f94c63c, the code before migration 10, built) streams a reply and waits;
// this checkout's sessionkeep (at the commit that added the dump) opens the store, which
// migrates it to schema 14, and closes it; then the old process ends its reply. Its body,
// written by the old code, has a hole the new readers cannot decode (BODY_UNREADABLE) and
// its block rows and blob stay. Kept as the record of how the file was made:
//   node across.mjs <old checkout> <this checkout> <db>; sqlite3 <db> .dump > v9-across-upgrade.sql
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const [old, current, db] = process.argv.slice(2);
const writer = spawn(process.execPath, [path.join(old, 'old-writer.mjs'), db], { stdio: ['pipe', 'pipe', 'inherit'] });
await new Promise((resolve) => writer.stdout.once('data', resolve));
const { openStore } = createRequire(import.meta.url)(path.join(current, 'dist', 'index.js'));
openStore(db).close();
writer.stdin.end('go\n');
await new Promise((resolve) => writer.on('exit', resolve));
