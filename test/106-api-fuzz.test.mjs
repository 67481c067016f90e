// A fuzz of the public API, in child processes so that a crash is seen as one: random and
// malformed chunks, messages, options, content nested 5,000 deep, circular or huge, and
// calls after close. Every call returns or throws a SessionError or a TypeError (never one
// saying sessionkeep itself failed), a rejected call changes no session, the first
// session's messages are intact at the end, and the process exits normally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { helper, openStore, runNode, SessionError, tempDir } from './helpers/common.mjs';

const SEEDS = [11, 12, 13, 14];
const CALLS = 2500;

for (const seed of SEEDS) {
  test(`seed ${seed}: ${CALLS} random calls, no crash, only SessionError or TypeError, nothing lost`, async (t) => {
    const db = path.join(tempDir(t), 'fuzz.db');
    const run = await runNode(helper('api-fuzz-child.mjs'), [db, String(seed), String(CALLS)], { timeoutMs: 120000 });
    assert.equal(run.signal, null, `the child was killed by ${run.signal}\n${run.stderr}`);
    assert.equal(run.code, 0, run.stderr);
    const tally = JSON.parse(run.stdout.trim().split('\n').pop());
    assert.deepEqual(tally.bad, [], 'errors other than SessionError and TypeError');
    assert.deepEqual(tally.changed, [], 'rejected calls that changed a session');
    assert.equal(tally.firstIntact, true, 'the first session kept its messages');
    assert.equal(tally.returned + tally.threw, CALLS);
    assert.ok(tally.returned > CALLS / 10 && tally.codes['SessionError:INVALID_CHUNK'] > 0 && tally.codes['SessionError:STORE_CLOSED'] > 0,
      `the calls reach the store and its checks: ${JSON.stringify(tally.codes)}`);
    // The store the child left opens and holds the first session as recorded.
    const store = openStore(db);
    t.after(() => store.close());
    const first = store.listSessions().find((s) => s.projectPath === '/fuzz');
    const blocks = store.openSession(first.id).messages().flatMap((m) => m.content);
    assert.deepEqual(blocks.slice(0, 3).map((b) => b.type), ['text', 'tool_use', 'tool_result']);
  });
}

// Whether 5,000 levels exceed JSON.stringify depends on the engine: Node 20 to 24 run out of
// stack, Node 26 encodes them. Either way the caller gets no RangeError: a SessionError
// TOO_DEEP with nothing stored, or the content stored and read back whole.
test('content nested 5,000 deep is a SessionError TOO_DEEP with nothing stored, or is stored whole', (t) => {
  const store = openStore(path.join(tempDir(t), 'deep.db'));
  t.after(() => store.close());
  const s = store.createSession();
  s.appendUserMessage('hello');
  let deep = {};
  for (let i = 0; i < 5000; i++) deep = { a: deep };
  const depth = (v) => { let n = 0; for (; v && typeof v === 'object' && 'a' in v; v = v.a) n++; return n; };
  const calls = {
    appendUserMessage: () => s.appendUserMessage([{ type: 'text', text: 'x', deep }]),
    tool_use: () => s.ingest({ type: 'tool_use', id: 't', name: 'n', input: deep }),
    block: () => s.ingest({ type: 'block', block: { type: 'x', deep } }),
    setContext: () => s.setContext({ cwd: '/x', deep }),
    restoreMessages: () => store.createSession().restoreMessages([{ role: 'user', content: [{ type: 'x', deep }] }]),
  };
  for (const [name, call] of Object.entries(calls)) {
    const before = JSON.stringify(s.messages().map((m) => m.content.length));
    let threw;
    try { call(); } catch (err) { threw = err; }
    if (threw) {
      assert.ok(threw instanceof SessionError && threw.code === 'TOO_DEEP', `${name}: ${threw}`);
      assert.equal(JSON.stringify(s.messages().map((m) => m.content.length)), before, `${name} changed the session`);
    }
  }
  const stored = s.messages().flatMap((m) => m.content).filter((b) => b.deep || b.input?.a);
  for (const b of stored) assert.equal(depth(b.deep ?? b.input), 5000, 'deep content read back whole');
  assert.equal(s.messages()[0].content[0].text, 'hello');
});
