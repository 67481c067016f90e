// session.watch(): a process follows a session another process writes, through the server's
// NOTIFY, without polling the database (SQLite's watch: test/171-sqlite-watch.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { helper, openStore, runNode, sessionError } from './helpers/common.mjs';
import { freshPgURL, skipWithoutPG } from './helpers/pg.mjs';

/** watchBound is how long after the writer's commit the watcher must have seen it. */
const watchBound = 1000;

/** startWatcher runs pg-child watch and resolves with the process and a promise of each line. */
function startWatcher(url, id) {
  const child = spawn(process.execPath, [helper('pg-child.mjs'), 'watch', url, id], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let wake;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    lines.push(...d.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    wake?.();
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const line = async (n) => {
    const deadline = Date.now() + 10000;
    while (lines.length <= n) {
      if (Date.now() > deadline) throw new Error(`no line ${n} from the watcher in 10 s: ${JSON.stringify(lines)}`);
      await new Promise((r) => { wake = r; setTimeout(r, 100); });
    }
    return lines[n];
  };
  return { child, line, exited };
}

test('another process sees a message within a bound, then exits once it closes its store', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const store = openStore(url);
  t.after(() => store.close());
  const s = store.createSession({ title: 'followed' });
  await store.flush();
  const watcher = startWatcher(url, s.id);
  t.after(() => watcher.child.kill('SIGKILL'));
  assert.deepEqual(await watcher.line(0), { ready: true });
  s.appendUserMessage('hello, follower');
  await store.flush();
  const committed = Date.now();
  const seen = await watcher.line(1);
  assert.equal(seen.text, 'hello, follower', 'the watcher read the message it was told of');
  assert.ok(seen.seen - committed < watchBound, `seen ${seen.seen - committed} ms after the commit`);
  // The watcher stopped watching and closed its store in the callback: nothing keeps it alive.
  const { code } = await Promise.race([watcher.exited, new Promise((r) => setTimeout(() => r({ code: 'still running' }), 5000))]);
  assert.equal(code, 0);
});

test('a watch stops when asked, and when its session closes', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const writer = openStore(url);
  const reader = openStore(url);
  t.after(() => { writer.close(); reader.close(); });
  const s = writer.createSession({ title: 'twice' });
  await writer.flush();
  const followed = reader.openSession(s.id);
  let calls = 0;
  const stop = followed.watch(() => { calls++; });
  s.appendUserMessage('one');
  await writer.flush();
  const deadline = Date.now() + watchBound;
  while (calls === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.equal(calls, 1, 'told of the commit');
  stop();
  stop(); // stopping twice is a no-op
  s.appendUserMessage('two');
  await writer.flush();
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(calls, 1, 'not told after stop()');
  assert.throws(() => followed.watch('not a function'), TypeError);
  followed.close();
  assert.throws(() => followed.watch(() => {}), sessionError('STORE_CLOSED'));
});

test('a watch left running does not keep a process alive after its store closes', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  const script = `const sk = require(${JSON.stringify(new URL('../dist/index.js', import.meta.url).pathname)});
    const st = sk.openStore(${JSON.stringify(url)}); const s = st.createSession();
    s.watch(() => {}); st.flush().then(() => st.close());`;
  const { code, signal, stderr } = await runNode('-e', [script], { timeoutMs: 5000 });
  assert.equal(signal, null, 'killed at the timeout: the watch kept the process alive');
  assert.equal(code, 0, stderr);
});
