// node wasm-child.mjs <dir>
// In a fresh process: trap in wasm before anything loaded the addon (main thread, then a
// worker that loads it itself), load the addon in the main thread, trap again, then a
// second worker. Prints every result as JSON.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';
import path from 'node:path';
import { wasmTrap } from './wasm.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const require = createRequire(import.meta.url);
const dir = process.argv[2];
const runWorker = (name) => new Promise((resolve, reject) => {
  const w = new Worker(new URL('./worker.mjs', import.meta.url), {
    workerData: { db: path.join(dir, `${name}.db`), exchanges: 20, trap: true },
  });
  w.once('message', resolve);
  w.once('error', reject);
});

const result = { mainBefore: wasmTrap() };
result.firstWorker = await runWorker('first'); // loads the addon into the process
const openStore = (db, ...rest) => require('../../dist/index.js').openStore(storeLocation(db), ...rest);
result.mainAfterLoad = wasmTrap();
const store = openStore(path.join(dir, 'main.db'));
const s = store.createSession();
s.appendUserMessage('hello from the main thread');
result.mainMessages = s.messages();
result.mainAfterUse = wasmTrap();
result.secondWorker = await runWorker('second');
result.mainAtEnd = wasmTrap();
store.close();
process.stdout.write(JSON.stringify(result) + '\n');
