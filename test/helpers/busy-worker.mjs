// A worker_threads script that records workerData.messages prompts, posts "ready", then
// keeps Promise-returning calls (messagesAsync, envelopesAsync, flush) in flight until the
// parent terminates it.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';

// `node --test test/` also runs this file on the main thread, where it has nothing to do.
if (!parentPort) process.exit(0);

const require = createRequire(import.meta.url);
const openStore = (db, ...rest) => require('../../dist/index.js').openStore(storeLocation(db), ...rest);
const store = openStore(workerData.db);
const s = store.createSession();
for (let i = 0; i < workerData.messages; i++) s.appendUserMessage(`prompt ${i} ${'x'.repeat(2000)}`);
parentPort.postMessage('ready');
for (;;) {
  await Promise.all([s.messagesAsync(), s.envelopesAsync(), s.flush()]);
  s.ingest({ type: 'text', text: 'more ' });
}
