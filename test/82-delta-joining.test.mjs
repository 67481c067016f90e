// Stream deltas are joined on the JS side (ts/pending.ts) and cross into native code once a
// run: at the next other native call, at the end of the event-loop turn, or within 5 ms of a
// long synchronous run. Joining must never move text into the wrong session or block, reorder
// it, hide it from the very next call, or hold it past the durability bound when the process
// is killed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempStore, tempDir, openStore, helper, killAfterFirstLine, runNode, sessionError } from './helpers/common.mjs';
import { deltasText } from './helpers/deltas.mjs';

/** started opens an assistant message on a new session of store. */
function started(store, prompt = 'go') {
  const s = store.createSession();
  s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  return s;
}

const content = (s) => s.messages().at(-1).content;

test('deltas of several sessions and stores interleaved within one tick land in their own blocks, in order', (t) => {
  const { store } = tempStore(t);
  const { store: other } = tempStore(t);
  const a = started(store);
  const b = started(store);
  const c = started(other);
  const a2 = store.openSession(a.id); // a second object over a's live session
  const want = { a: '', b: '', c: '' };
  for (let i = 0; i < 300; i++) {
    a.ingest({ type: 'text', text: `a${i} ` }); want.a += `a${i} `;
    if (i % 3 === 0) { b.ingest({ type: 'thinking', thinking: `b${i}→` }); want.b += `b${i}→`; }
    if (i % 7 === 0) { c.ingest({ type: 'text', text: `c${i}✓` }); want.c += `c${i}✓`; }
    if (i % 50 === 49) { a2.ingest({ type: 'text', text: `[A2:${i}]` }); want.a += `[A2:${i}]`; }
  }
  assert.deepEqual(content(a), [{ type: 'text', text: want.a }]);
  assert.deepEqual(content(a2), [{ type: 'text', text: want.a }]);
  assert.deepEqual(content(b), [{ type: 'thinking', thinking: want.b }]);
  assert.deepEqual(content(c), [{ type: 'text', text: want.c }]);

  // Thinking, then text, then tool input JSON in one session: three blocks, each whole.
  const d = started(store);
  for (let i = 0; i < 40; i++) d.ingest({ type: 'thinking', thinking: `t${i}` });
  for (let i = 0; i < 40; i++) d.ingest({ type: 'text', text: `x${i}` });
  d.ingest({ type: 'tool_use_start', id: 'toolu_1', name: 'bash' });
  const input = JSON.stringify({ command: 'echo "→ ✓ 🚀"', args: Array.from({ length: 30 }, (_, i) => `arg${i}`) });
  for (let i = 0; i < input.length; i += 3) d.ingest({ type: 'tool_use_delta', partialJson: input.slice(i, i + 3) });
  d.ingest({ type: 'done', stopReason: 'tool_use' });
  assert.deepEqual(content(d), [
    { type: 'thinking', thinking: Array.from({ length: 40 }, (_, i) => `t${i}`).join('') },
    { type: 'text', text: Array.from({ length: 40 }, (_, i) => `x${i}`).join('') },
    { type: 'tool_use', id: 'toolu_1', name: 'bash', input: JSON.parse(input) },
  ]);
});

test('the call right after a delta sees the joined text: a read, another session\'s chunk, a prompt, done', (t) => {
  const { store } = tempStore(t);
  const a = started(store);
  const b = started(store);
  a.ingest({ type: 'text', text: 'one ' });
  a.ingest({ type: 'text', text: 'two ' });
  a.ingest({ type: 'text', text: 'three' });
  assert.deepEqual(content(a), [{ type: 'text', text: 'one two three' }], 'messages() on the same session');
  assert.equal(a.envelopes().at(-1).message.content[0].text, 'one two three');
  assert.equal(a.tail(1)[0].message.content[0].text, 'one two three');

  a.ingest({ type: 'text', text: ' four' });
  a.ingest({ type: 'text', text: ' five' });
  b.ingest({ type: 'tool_use', id: 'toolu_b', name: 'ls', input: {} }); // another session, another kind
  b.ingest({ type: 'text', text: 'b says' });
  a.ingest({ type: 'text', text: ' six' });
  assert.deepEqual(content(a), [{ type: 'text', text: 'one two three four five six' }]);
  assert.deepEqual(content(b), [{ type: 'tool_use', id: 'toolu_b', name: 'ls', input: {} }, { type: 'text', text: 'b says' }]);

  // A new prompt cuts the reply off with every delta in it, then follows it.
  a.ingest({ type: 'text', text: ' seven' });
  a.appendUserMessage('stop there');
  const env = a.envelopes();
  assert.deepEqual(env.slice(-2).map((e) => [e.type, e.status, e.message.content[0].text]), [
    ['assistant', 'interrupted', 'one two three four five six seven'],
    ['user', 'complete', 'stop there'],
  ]);

  // done right after deltas completes the block with all of them; search finds it at once.
  const c = started(store);
  for (let i = 0; i < 100; i++) c.ingest({ type: 'text', text: i === 99 ? 'zanzibarquokka' : `w${i} ` });
  c.ingest({ type: 'done', stopReason: 'end_turn' });
  assert.equal(content(c)[0].text.endsWith('w98 zanzibarquokka'), true);
  assert.equal(c.envelopes().at(-1).status, 'complete');
  assert.deepEqual(store.search('zanzibarquokka').map((h) => h.sessionId), [c.id]);
});

test('a store call (listSessions) hands the joined deltas over: another process sees them while this JS thread is blocked', (t) => {
  const { db, store } = tempStore(t);
  const a = started(store);
  let want = '';
  for (let i = 0; i < 200; i++) {
    a.ingest({ type: 'text', text: `p${i} ` });
    want += `p${i} `;
  }
  store.listSessions();
  // spawnSync blocks this thread: no later event-loop turn hands anything over, only native
  // code (its 20 ms checkpoint of the streaming block) can make the text visible.
  const r = spawnSync(process.execPath, [helper('poll-text-child.mjs'), db, a.id, want, '5000'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const seen = JSON.parse(r.stdout);
  assert.equal(seen.text, want, 'every delta before listSessions() reached the database');
});

test('an invalid delta in a run is refused; the joined text before it stays; a closed store refuses the next delta', async (t) => {
  const { db, store } = tempStore(t);
  const a = started(store);
  a.ingest({ type: 'text', text: 'kept ' });
  a.ingest({ type: 'text', text: 'too' });
  assert.throws(() => a.ingest({ type: 'text', text: 42 }), sessionError('INVALID_CHUNK', /text/));
  a.ingest({ type: 'text', text: ', and this' });
  assert.deepEqual(content(a), [{ type: 'text', text: 'kept too, and this' }]);

  a.ingest({ type: 'text', text: ' before close' });
  a.ingest({ type: 'text', text: ' (joined)' });
  store.close();
  assert.throws(() => a.ingest({ type: 'text', text: 'after close' }), sessionError('STORE_CLOSED'));
  assert.throws(() => a.ingest({ type: 'text', text: 'and again' }), sessionError('STORE_CLOSED'), 'not joined silently');
  const again = openStore(db);
  t.after(() => again.close());
  const r = again.openSession(a.id).envelopes().at(-1);
  assert.equal(r.message.content[0].text, 'kept too, and this before close (joined)');
  assert.equal(r.status, 'interrupted');
});

/** recorded reopens the killed child's session and returns its last message's text and status. */
function recorded(t, db, id) {
  const store = openStore(db);
  t.after(() => store.close());
  const last = store.openSession(id).envelopes().at(-1);
  return { text: last.message.content.map((b) => b.text).join(''), status: last.status, role: last.message.role };
}

test('a synchronous ~50 ms loop of deltas, a 60 ms wait, SIGKILL: every delta is on disk', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const { id, count, signal } = await killAfterFirstLine(helper('delta-child.mjs'), [db, 'loop-then-wait']);
  assert.equal(signal, 'SIGKILL');
  assert.ok(count > 100, `${count} deltas`);
  const got = recorded(t, db, id);
  assert.equal(got.role, 'assistant');
  assert.equal(got.text, deltasText(count));
  assert.equal(got.status, 'interrupted', 'a reply cut off by a dead process');
});

test('killed in the middle of a long synchronous loop of deltas: every delta ingested 100 ms before the kill is on disk', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const { id, count } = await killAfterFirstLine(helper('delta-child.mjs'), [db, 'killed-mid-loop']);
  const got = recorded(t, db, id);
  const before = deltasText(count);
  assert.ok(got.text.length >= before.length, `${got.text.length} characters on disk, ${before.length} ingested before the line`);
  assert.equal(got.text.slice(0, before.length), before, 'a prefix of the stream, in order, nothing lost or repeated');
  assert.match(got.text.slice(before.length), /^(d\d+ → ✓ )*(d(\d+( (→( (✓( )?)?)?)?)?)?)?$/, 'then more whole deltas, the last possibly cut');
});

test('killed while the JS thread works synchronously after its last deltas: every delta (ingested 100 ms and more before) is on disk', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const { id, count } = await killAfterFirstLine(helper('delta-child.mjs'), [db, 'work-after-deltas']);
  assert.equal(count, 10);
  const got = recorded(t, db, id);
  assert.equal(got.text, deltasText(count), `${count} deltas ingested 8 ms apart; ${got.text.length} of ${deltasText(count).length} characters on disk`);
});

test('process.exit() in the same tick as the deltas: the exit closes the store with every joined delta', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const r = await runNode(helper('delta-child.mjs'), [db, 'exit-after-loop']);
  assert.equal(r.code, 0, r.stderr);
  const { id, count } = JSON.parse(r.stdout);
  const got = recorded(t, db, id);
  assert.equal(got.text, deltasText(count));
  assert.equal(got.status, 'interrupted');
});
