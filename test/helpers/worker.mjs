// A worker_threads script: optionally traps in WebAssembly first, loads the addon, records
// `exchanges` prompt/answer pairs into a new session of workerData.db, reads and flushes,
// traps again, and posts what it saw. workerData.exitWithoutFlush skips the flush and the
// reply and just returns, to show the environment's cleanup makes the writes durable.
import { parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { storeLocation } from './store-location.mjs';
import { wasmTrap } from './wasm.mjs';

// `node --test test/` also runs this file on the main thread, where it has nothing to do.
if (!parentPort) process.exit(0);

const require = createRequire(import.meta.url);
const { db, exchanges, trap, exitWithoutFlush } = workerData;
const before = trap ? wasmTrap() : null;
const openStore = (db, ...rest) => require('../../dist/index.js').openStore(storeLocation(db), ...rest);
const store = openStore(db);
const s = store.createSession({ projectPath: '/work/worker' });
for (let i = 0; i < exchanges; i++) {
  s.appendUserMessage(`question ${i}`);
  s.ingest({ type: 'message_start', id: `msg_${i}` });
  s.ingest({ type: 'text', text: `answer ` });
  s.ingest({ type: 'text', text: `${i}` });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 10, output_tokens: 1 } });
  if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the main thread interleave
}
if (exitWithoutFlush) {
  parentPort.postMessage({ id: s.id });
} else {
  const messages = s.messages();
  const asyncMessages = await s.messagesAsync();
  await s.flush();
  parentPort.postMessage({
    id: s.id,
    before,
    after: trap ? wasmTrap() : null,
    count: messages.length,
    last: messages.at(-1),
    asyncEqual: JSON.stringify(asyncMessages) === JSON.stringify(messages),
    tracker: s.tokenTracker(),
  });
  store.close();
}
