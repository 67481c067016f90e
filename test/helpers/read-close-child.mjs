// node read-close-child.mjs <db> <sessionId>
// Starts async reads of a large session and closes the session or its store while they are
// in flight (at once, after a few event-loop turns, after a timer), and terminates a worker
// thread in the middle of its own read. Prints one JSON document: for each case, how the
// read settled ({ ok, length, last } or { code, name }; last is the last record's uuid, or the
// last message's text), and the full envelope count and last uuid read afterwards. A crash or a hang shows as the process not
// exiting 0 with that document.
import { Worker } from 'node:worker_threads';
import { openStore } from './common.mjs';

// `node --test test/` runs every script under test/ as a test file; run that way, with no
// arguments, this helper has nothing to do.
if (process.argv.length < 3) process.exit(0);

const [db, id] = process.argv.slice(2);
const turns = (n) => new Promise((resolve) => {
  const step = () => (n-- <= 0 ? resolve() : setImmediate(step));
  step();
});

/** settle reports how a read's promise settled. */
async function settle(p) {
  try {
    const r = await p;
    const last = r.at(-1);
    return { ok: true, length: r.length, last: last === undefined ? null : last.uuid ?? last.content[0].text };
  } catch (err) {
    return { ok: false, code: err.code, name: err.name, message: err.message };
  }
}

const cases = {};
const open = () => {
  const store = openStore(db);
  return [store, store.openSession(id)];
};

{
  const [store, s] = open();
  const p = s.envelopesAsync();
  s.close();
  cases.sessionCloseAtOnce = await settle(p);
  store.close();
}
{
  const [store, s] = open();
  const p = s.envelopesAsync();
  store.close();
  cases.storeCloseAtOnce = await settle(p);
}
{
  const [store, s] = open();
  const p = s.messagesAsync();
  await turns(3);
  s.close();
  cases.sessionCloseAfterTurns = await settle(p);
  store.close();
}
{
  const [store, s] = open();
  const p = s.envelopesAsync();
  await turns(3);
  store.close();
  cases.storeCloseAfterTurns = await settle(p);
}
{
  const [store, s] = open();
  const p = s.tailAsync(1e6);
  setTimeout(() => store.close(), 5);
  cases.storeCloseOnTimer = await settle(p);
}
{
  // Several reads at once, then the store closed under all of them.
  const [store, s] = open();
  const ps = [s.envelopesAsync(), s.messagesAsync(), s.tailAsync(10)];
  await turns(2);
  store.close();
  cases.concurrent = await Promise.all(ps.map(settle));
}
{
  // A worker thread torn down while its read streams parts to it.
  const common = new URL('./common.mjs', import.meta.url).href;
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.common).then(({ openStore }) => {
      const s = openStore(workerData.db).openSession(workerData.id);
      s.envelopesAsync().then((r) => parentPort.postMessage({ done: r.length }));
      let n = 0;
      const step = () => { if (++n === 3) parentPort.postMessage({ reading: true }); else setImmediate(step); };
      step();
    });
  `, { eval: true, workerData: { db, id, common } });
  const first = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  cases.workerTerminated = { first };
}

const [store, s] = open();
const all = s.envelopes();
cases.full = { length: all.length, last: all.at(-1).uuid };
store.close();
process.stdout.write(JSON.stringify(cases) + '\n');
