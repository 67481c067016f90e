// Shutdown and crash recovery: SIGINT, SIGTERM and SIGHUP close the store before the process
// ends as Node would have; an app's own signal handler is respected; a process killed
// outright leaves its sessions interrupted and reported on the next open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { openStore, tempDir, helper, sleep } from './helpers/common.mjs';

/**
 * startChild runs shutdown-child.mjs and resolves once it printed its ready line, with the
 * child, its id, and a promise of its exit.
 */
function startChild(db, mode) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [helper('shutdown-child.mjs'), db, mode], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
    const guard = setTimeout(() => child.kill('SIGKILL'), 15000);
    exited.then(() => clearTimeout(guard));
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const first = out === '' || !out.includes('\n');
      out += d;
      if (first && out.includes('\n')) resolve({ child, id: JSON.parse(out.slice(0, out.indexOf('\n'))).id, exited, output: () => out });
    });
    child.on('error', reject);
    exited.then(({ code, signal }) => reject(new Error(`child exited early (${code ?? signal}): ${err}`)));
  });
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  test(`${signal} mid-stream: queued writes are committed, the reply kept as interrupted, then the process ends by ${signal}`, async (t) => {
    const db = path.join(tempDir(t), 'shutdown.db');
    const { child, id, exited } = await startChild(db, 'stream');
    const before = Date.now();
    child.kill(signal);
    assert.deepEqual(await exited, { code: null, signal }, 'it ends by the signal, as without sessionkeep');

    const store = openStore(db);
    t.after(() => store.close());
    assert.deepEqual(store.recovered(), [], 'a clean shutdown is not a crash');
    const s = store.openSession(id);
    assert.deepEqual(s.messages().map((m) => m.content), [
      [{ type: 'text', text: 'Explain the build' }],
      [{ type: 'text', text: 'The build runs in two ' }],
    ]);
    assert.deepEqual(s.envelopes().map((e) => e.status), ['complete', 'interrupted']);
    const info = s.details();
    assert.equal(info.status, 'interrupted', 'the reply was cut off');
    assert.ok(Date.parse(info.lastAccessedAt) >= before - 5, 'the last access was recorded at shutdown');
  });
}

test('SIGINT with an idle session: nothing was cut off, so the session stays active', async (t) => {
  const db = path.join(tempDir(t), 'shutdown.db');
  const { child, id, exited } = await startChild(db, 'idle');
  child.kill('SIGINT');
  assert.deepEqual(await exited, { code: null, signal: 'SIGINT' });
  const store = openStore(db);
  t.after(() => store.close());
  assert.deepEqual(store.recovered(), []);
  const [info] = store.listSessions();
  assert.equal(info.id, id);
  assert.equal(info.status, 'active');
  assert.equal(info.messageCount, 2);
});

test('an app that handles SIGINT itself keeps running with its store open', async (t) => {
  const db = path.join(tempDir(t), 'shutdown.db');
  const { child, id, exited, output } = await startChild(db, 'own-handler');
  child.kill('SIGINT');
  for (let i = 0; i < 100 && !output().includes('handled'); i++) await sleep(20);
  assert.match(output(), /handled/);
  await sleep(100);
  assert.equal(child.exitCode, null, 'still running');
  child.stdin.end(); // the app decides to quit
  assert.deepEqual(await exited, { code: 0, signal: null });

  const store = openStore(db);
  t.after(() => store.close());
  const s = store.openSession(id);
  assert.equal(s.messages()[1].content[0].text, 'The build runs in two steps; still going after SIGINT.');
  assert.deepEqual(s.envelopes().map((e) => e.status), ['complete', 'complete']);
  assert.equal(s.status, 'active');
});

test('handleSignals(false): a signal ends the process at once, and the next open recovers what it left', async (t) => {
  const db = path.join(tempDir(t), 'shutdown.db');
  const { child, id, exited } = await startChild(db, 'no-signals');
  await sleep(100); // let the writer commit the queued chunks, as a crash would find them
  child.kill('SIGTERM');
  assert.deepEqual(await exited, { code: null, signal: 'SIGTERM' });
  const store = openStore(db);
  t.after(() => store.close());
  assert.deepEqual(store.recovered(), [{ id, projectPath: '/work/shutdown', title: 'Explain the build', interruptedMessages: 1 }]);
});

test('SIGKILL: streaming and idle sessions alike come back interrupted, and are reported once', async (t) => {
  const db = path.join(tempDir(t), 'crash.db');
  const streaming = await startChild(db, 'stream');
  const idle = await startChild(db, 'idle');
  await sleep(100);
  streaming.child.kill('SIGKILL');
  idle.child.kill('SIGKILL');
  await Promise.all([streaming.exited, idle.exited]);

  const store = openStore(db);
  const recovered = Object.fromEntries(store.recovered().map((r) => [r.id, r.interruptedMessages]));
  assert.deepEqual(recovered, { [streaming.id]: 1, [idle.id]: 0 });
  const statuses = Object.fromEntries(store.listSessions().map((i) => [i.id, i.status]));
  assert.deepEqual(statuses, { [streaming.id]: 'interrupted', [idle.id]: 'interrupted' });
  assert.deepEqual(store.openSession(streaming.id).envelopes().map((e) => e.status), ['complete', 'interrupted']);
  store.close();

  const again = openStore(db);
  t.after(() => again.close());
  assert.deepEqual(again.recovered(), []);
  assert.equal(again.listSessions()[0].status, 'interrupted', 'it stays interrupted until written to');
});
