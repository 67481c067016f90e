// session.watch() on the SQLite default: another process's commit reaches the watcher within
// 250 ms (PRAGMA data_version on a connection of the watcher's own, then the listing row of
// each watched session), a watch stops when asked and when its store closes, and leaves
// nothing running; `sessionkeep show --follow` prints a session as it grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { helper, runNode, sessionError, sk, tempDir } from './helpers/common.mjs';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');

/** watchBound is how long after the writer's commit the watcher must have seen it. */
const watchBound = 250;

/** startWatcher runs watch-child on the session and resolves its lines. */
function startWatcher(file, id) {
  const child = spawn(process.execPath, [helper('watch-child.mjs'), file, id], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let wake;
  child.stdout.setEncoding('utf8').on('data', (d) => {
    lines.push(...d.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    wake?.();
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const line = async (n) => {
    const deadline = Date.now() + 10000;
    while (lines.length <= n) {
      if (Date.now() > deadline) throw new Error(`no line ${n} from the watcher in 10 s: ${JSON.stringify(lines)}`);
      await new Promise((r) => { wake = r; setTimeout(r, 50); });
    }
    return lines[n];
  };
  return { child, line, exited };
}

test('another process sees a message committed to a SQLite store within 250 ms, then exits', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = sk.openStore(file);
  t.after(() => store.close());
  const s = store.createSession({ title: 'followed' });
  await store.flush();
  const gaps = [];
  for (let round = 0; round < 3; round++) {
    const watcher = startWatcher(file, s.id);
    t.after(() => watcher.child.kill('SIGKILL'));
    assert.deepEqual(await watcher.line(0), { ready: true });
    await new Promise((r) => setTimeout(r, 50));
    s.appendUserMessage(`hello, follower ${round}`);
    await store.flush();
    const committed = Date.now();
    const seen = await watcher.line(1);
    assert.equal(seen.text, `hello, follower ${round}`, 'the watcher read the message it was told of');
    gaps.push(seen.seen - committed);
    assert.equal(await watcher.exited, 0, 'stopped and closed in its callback: nothing keeps it alive');
  }
  t.diagnostic(`seen ${gaps.join(', ')} ms after the commits`);
  assert.ok(Math.max(...gaps) < watchBound, `seen ${gaps.join(', ')} ms after the commits`);
});

test('on SQLite a watch is told of its session only, stops when asked and when its session closes', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const writer = sk.openStore(file);
  const reader = sk.openStore(file);
  t.after(() => { writer.close(); reader.close(); });
  const s = writer.createSession({ title: 'twice' });
  const other = writer.createSession({ title: 'elsewhere' });
  await writer.flush();
  const followed = reader.openSession(s.id);
  let calls = 0;
  const stop = followed.watch(() => { calls++; });
  const waitCalls = async (n) => {
    const deadline = Date.now() + 1000;
    while (calls < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };
  other.appendUserMessage('not followed');
  await writer.flush();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(calls, 0, 'a commit to another session is not a change of this one');
  s.appendUserMessage('one');
  await writer.flush();
  await waitCalls(1);
  assert.equal(calls, 1, 'told of the commit');
  // A reply streaming: each checkpoint of partial text is a change too.
  s.ingest({ type: 'message_start', id: 'msg_1', model: 'm' });
  s.ingest({ type: 'text', text: 'Once upon ' });
  await writer.flush();
  await waitCalls(2);
  assert.equal(calls, 2, 'told of the partial reply');
  stop();
  stop(); // stopping twice is a no-op
  s.appendUserMessage('two');
  await writer.flush();
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(calls, 2, 'not told after stop()');
  assert.throws(() => followed.watch('not a function'), TypeError);
  followed.close();
  assert.throws(() => followed.watch(() => {}), sessionError('STORE_CLOSED'));
});

test('a SQLite watch left running does not keep a process alive after its store closes', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const script = `const sk = require(${JSON.stringify(new URL('../dist/index.js', import.meta.url).pathname)});
    const st = sk.openStore(${JSON.stringify(file)}); const s = st.createSession();
    s.watch(() => {}); st.flush().then(() => st.close());`;
  const { code, signal, stderr } = await runNode('-e', [script], { timeoutMs: 5000 });
  assert.equal(signal, null, 'killed at the timeout: the watch kept the process alive');
  assert.equal(code, 0, stderr);
});

test('sessionkeep show --follow prints a message another process commits, within a second, and stops on SIGINT', async (t) => {
  const file = path.join(tempDir(t), 'sessions.db');
  const store = sk.openStore(file);
  t.after(() => store.close());
  const s = store.createSession({ title: 'followed live' });
  s.appendUserMessage('first, before following');
  await store.flush();
  const env = { ...process.env };
  delete env.FORCE_COLOR;
  const child = spawn(process.execPath, [BIN, 'show', s.id, '--follow', '--db', file], { stdio: ['ignore', 'pipe', 'pipe'], env });
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const waitFor = async (text, ms) => {
    const deadline = Date.now() + ms;
    while (!out.includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    return out.includes(text);
  };
  assert.ok(await waitFor('first, before following', 10000), out);
  await new Promise((r) => setTimeout(r, 200)); // its watch is set up after the first print
  s.appendUserMessage('second, while following');
  s.ingest({ type: 'message_start', id: 'msg_1', model: 'm' });
  s.ingest({ type: 'text', text: 'A reply that streams' });
  await store.flush();
  const committed = Date.now();
  assert.ok(await waitFor('second, while following', 1000), `not printed within a second:\n${out}`);
  t.diagnostic(`printed ${Date.now() - committed} ms after the commit`);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(!out.includes('A reply that streams'), 'a reply still streaming waits for its end');
  s.ingest({ type: 'text', text: ', then ends.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  await store.flush();
  assert.ok(await waitFor('A reply that streams, then ends.', 1000), out);
  assert.equal(out.split('first, before following').length, 2, 'nothing printed twice');
  child.kill('SIGINT');
  assert.deepEqual(await exited, { code: 0, signal: null });
});
