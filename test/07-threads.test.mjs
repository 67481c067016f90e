// Threads: the addon in worker_threads, and beside WebAssembly that traps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { openStore, tempStore, tempDir, runNode, runNodeJSON, helper } from './helpers/common.mjs';
import { wasmTrap } from './helpers/wasm.mjs';

const TRAP = 'RuntimeError: memory access out of bounds';

function runWorker(workerData) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./helpers/worker.mjs', import.meta.url), { workerData });
    let reply;
    w.on('message', (m) => { reply = m; });
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 ? resolve(reply) : reject(new Error(`worker exited with ${code}`))));
  });
}

const answer = (i) => ({
  role: 'assistant', id: `msg_${i}`, content: [{ type: 'text', text: `answer ${i}` }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 1 },
});

test('two workers and the main thread use the addon at once, on one database file', async (t) => {
  const { db, store } = tempStore(t);
  const exchanges = 150;
  const workers = [runWorker({ db, exchanges }), runWorker({ db, exchanges })];

  // Meanwhile the main thread records its own session in the same file.
  const s = store.createSession({ projectPath: '/work/main-thread' });
  for (let i = 0; i < exchanges; i++) {
    s.appendUserMessage(`main ${i}`);
    s.ingest({ type: 'text', text: `main answer ${i}` });
    s.ingest({ type: 'done' });
    if (i % 25 === 0) await new Promise((r) => setImmediate(r));
  }
  const replies = await Promise.all(workers);
  await s.flush();

  assert.notEqual(replies[0].id, replies[1].id);
  for (const r of replies) {
    assert.equal(r.count, 2 * exchanges);
    assert.deepEqual(r.last, answer(exchanges - 1));
    assert.equal(r.asyncEqual, true);
    assert.deepEqual(r.tracker, {
      inputTokens: 10 * exchanges, outputTokens: exchanges, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 10,
    });
    // What the worker wrote, the main thread reads.
    const ws = store.openSession(r.id);
    const messages = ws.messages();
    assert.equal(messages.length, 2 * exchanges);
    assert.deepEqual(messages[0], { role: 'user', content: [{ type: 'text', text: 'question 0' }] });
    assert.deepEqual(messages.at(-1), answer(exchanges - 1));
    assert.deepEqual(ws.turns().length, exchanges);
  }
  assert.equal(s.messages().length, 2 * exchanges);
  assert.equal(store.listSessions().length, 3);
});

test('a worker that ends without flush or close still has its writes durable', async (t) => {
  const { db, store } = tempStore(t);
  const { id } = await runWorker({ db, exchanges: 40, exitWithoutFlush: true });
  const s = store.openSession(id);
  const messages = s.messages();
  assert.equal(messages.length, 80);
  assert.deepEqual(messages.at(-1), answer(39));
  assert.ok(s.envelopes().every((e) => e.status === 'complete'));
});

test('a WebAssembly out-of-bounds access is a catchable RuntimeError with the addon loaded', async (t) => {
  const { store } = tempStore(t);
  assert.equal(wasmTrap(), TRAP);
  const s = store.createSession();
  s.appendUserMessage('between traps');
  await s.flush();
  assert.equal(wasmTrap(), TRAP);
  assert.equal(s.messages().length, 1);
  const reply = await runWorker({ db: store.path, exchanges: 5, trap: true });
  assert.equal(reply.before, TRAP);
  assert.equal(reply.after, TRAP);
  assert.equal(reply.count, 10);
  assert.equal(wasmTrap(), TRAP);
});

test('wasm traps before and after the addon loads, in the main thread and in workers (fresh process)', async (t) => {
  const dir = tempDir(t);
  const r = await runNodeJSON(helper('wasm-child.mjs'), [dir]);
  assert.equal(r.mainBefore, TRAP);
  assert.equal(r.firstWorker.before, TRAP, 'in a worker, before any thread loaded the addon');
  assert.equal(r.firstWorker.after, TRAP);
  assert.equal(r.firstWorker.count, 40);
  assert.equal(r.mainAfterLoad, TRAP);
  assert.equal(r.mainAfterUse, TRAP);
  assert.deepEqual(r.mainMessages, [{ role: 'user', content: [{ type: 'text', text: 'hello from the main thread' }] }]);
  assert.equal(r.secondWorker.before, TRAP);
  assert.equal(r.secondWorker.after, TRAP);
  assert.equal(r.secondWorker.count, 40);
  assert.equal(r.mainAtEnd, TRAP);

  // The workers' sessions are on disk.
  for (const name of ['first', 'second']) {
    const store = openStore(path.join(dir, `${name}.db`));
    const [info] = store.listSessions();
    assert.equal(info.messageCount, 40);
    store.close();
  }
});

test('terminating a worker while its Promise calls are in flight does not crash the process', async (t) => {
  const dir = tempDir(t);
  const r = await runNode(helper('terminate-child.mjs'), [dir, '8']);
  assert.equal(r.signal, null, `killed by ${r.signal}`);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'survived\n');
});
