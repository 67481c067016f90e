// session.tail(n) and tailAsync(n): the last n records of the branch at the head, read by
// index instead of through the whole conversation. A UI restoring a session shows exactly
// these, so they must be the same records, byte for byte, as the end of envelopes(): with tool
// calls, results, thinking, subagent records, a message still streaming, after a rewind and
// from a store reopened on the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, openStore, sessionError } from './helpers/common.mjs';

/**
 * recordRounds records `rounds` exchanges, each a prompt, an assistant message with thinking,
 * text and a tool call, its result, and a reply; every fifth tool call runs a subagent whose
 * two records are a sidechain. About 5 records a round.
 */
function recordRounds(s, rounds, tag = 'r') {
  for (let i = 0; i < rounds; i++) {
    s.appendUserMessage(`${tag}${i}: check file ${i} → ✓`);
    s.ingest({ type: 'message_start', id: `msg_${tag}${i}a`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'thinking', thinking: `I should read f${i}.` });
    s.ingest({ type: 'signature', signature: `sig${i}` });
    s.ingest({ type: 'text', text: `Reading f${i}.` });
    s.ingest({ type: 'tool_use', id: `toolu_${tag}${i}`, name: i % 5 === 0 ? 'Task' : 'read_file', input: { path: `f${i}.ts` } });
    s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 100 + i, output_tokens: 10 } });
    if (i % 5 === 0) {
      const side = { agentId: `agent${i}`, parentToolUseId: `toolu_${tag}${i}` };
      s.appendUserMessage(`look into f${i}`, side);
      s.ingest({ type: 'message_start', id: `msg_${tag}${i}s`, model: 'claude-haiku-4-5', ...side });
      s.ingest({ type: 'text', text: `f${i} is fine` });
      s.ingest({ type: 'done', stopReason: 'end_turn' });
    }
    s.ingest({ type: 'tool_result', toolUseId: `toolu_${tag}${i}`, content: `export const v${i} = ${i}; // 漢字 🚀` });
    s.ingest({ type: 'message_start', id: `msg_${tag}${i}b`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text: `f${i} exports v${i}.` });
    s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 200 + i, output_tokens: 12 } });
  }
}

/** sizes are the n the tail is checked at: small, around a part, the whole and beyond. */
const sizes = (len) => [1, 2, 3, 7, 50, len - 1, len, len + 1, 10 * len];

async function assertTails(s, label) {
  const all = s.envelopes();
  for (const n of sizes(all.length)) {
    const want = all.slice(-n);
    assert.deepEqual(s.tail(n), want, `${label}: tail(${n})`);
    assert.deepEqual(await s.tailAsync(n), want, `${label}: tailAsync(${n})`);
  }
  assert.deepEqual(s.tail(0), [], `${label}: tail(0)`);
  assert.deepEqual(await s.tailAsync(0), [], `${label}: tailAsync(0)`);
  return all;
}

test('tail(n) and tailAsync(n) are the end of envelopes() on a session of a few hundred records', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ projectPath: '/work/tail' });
  assert.deepEqual(s.tail(5), [], 'an empty session');
  assert.deepEqual(await s.tailAsync(5), []);
  recordRounds(s, 70);
  const all = await assertTails(s, 'live');
  assert.ok(all.length >= 300, `${all.length} records`);
  assert.ok(all.some((e) => e.isSidechain), 'sidechain records are among them');
  assert.deepEqual(s.tail(4).map((e) => e.type), ['user', 'assistant', 'tool_result', 'assistant']);
  assert.equal(s.tail(1)[0].message.content[0].text, 'f69 exports v69.');

  // A message still streaming is the last record, as far as it has come.
  s.appendUserMessage('one more');
  s.ingest({ type: 'message_start', id: 'msg_streaming', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: 'Half a sen' });
  const [last] = s.tail(1);
  assert.equal(last.status, 'streaming');
  assert.deepEqual(last.message.content, [{ type: 'text', text: 'Half a sen' }]);
  assert.deepEqual(await s.tailAsync(2), s.envelopes().slice(-2));

  // From another store object on the file, reading rows rather than the live session.
  await s.flush();
  const other = openStore(db);
  t.after(() => other.close());
  const o = other.openSession(s.id);
  await assertTails(o, 'other store');
  store.close();
  await assertTails(o, 'after the writer closed');
  assert.equal(o.tail(1)[0].status, 'interrupted', 'closing cut the streaming message off');
});

test('an invalid n throws INVALID_ARGUMENT or TypeError; tailAsync rejects with the same, never throws', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  recordRounds(s, 2);
  for (const n of [-1, -0.5, 1.5, 1e-300, NaN, Infinity, -Infinity]) {
    assert.throws(() => s.tail(n), sessionError('INVALID_ARGUMENT', /non-negative integer/), `tail(${n})`);
    const p = s.tailAsync(n);
    assert.ok(p instanceof Promise, `tailAsync(${n}) returns a promise`);
    await assert.rejects(p, sessionError('INVALID_ARGUMENT', /non-negative integer/), `tailAsync(${n})`);
  }
  for (const n of ['3', null, undefined, true, {}, [1], 3n]) {
    assert.throws(() => s.tail(n), TypeError, `tail(${String(n)})`);
    const p = s.tailAsync(n);
    assert.ok(p instanceof Promise);
    await assert.rejects(p, TypeError, `tailAsync(${String(n)})`);
  }
  assert.deepEqual(s.tail(-0), [], '-0 is 0');
  assert.deepEqual(s.tail(2), s.envelopes().slice(-2), 'the session is unharmed');

  s.close();
  assert.throws(() => s.tail(1), sessionError('STORE_CLOSED'));
  await assert.rejects(s.tailAsync(1), sessionError('STORE_CLOSED'));
});

test('an n beyond 2^31 is a non-negative integer larger than the session: it gives all of it, as documented', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  recordRounds(s, 2);
  const all = s.envelopes();
  for (const n of [2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
    assert.deepEqual(s.tail(n), all, `tail(${n})`);
    assert.deepEqual(await s.tailAsync(n), all, `tailAsync(${n})`);
  }
});

test('after rewind the tail follows the branch at the head, and keeps following it across a reopen', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  recordRounds(s, 30, 'a');
  const before = s.envelopes();
  // Back to the reply of round 9: rounds 10..29 are on the abandoned branch.
  const at = before.findIndex((e) => e.message.content[0]?.text === 'f9 exports v9.');
  const to = before[at];
  await s.rewind(to.uuid);
  const branch = s.envelopes();
  assert.equal(branch.at(-1).uuid, to.uuid);
  assert.ok(branch.length < before.length);
  await assertTails(s, 'rewound');
  assert.deepEqual(s.tail(3), before.slice(at - 2, at + 1), 'the records up to the head, none written after it');

  // The next messages start a new branch; the tail shows it, never the abandoned records.
  recordRounds(s, 4, 'b');
  const now = await assertTails(s, 'new branch');
  const abandoned = new Set(before.slice(at + 1).map((e) => e.uuid));
  assert.ok(s.tail(now.length).every((e) => !abandoned.has(e.uuid)));
  assert.equal(s.tail(40).length, 40);
  assert.ok(s.tail(40).some((e) => e.message.content[0]?.text === 'f9 exports v9.'), 'the tail reaches back past the fork point');

  // Rewinding to the last record of the first branch switches back to it.
  await s.rewind(before.at(-1).uuid);
  assert.deepEqual(s.tail(before.length), before);
  await assertTails(s, 'switched back');

  await s.flush();
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const r = again.openSession(s.id);
  assert.deepEqual(r.tail(before.length + 10), before);
  await assertTails(r, 'reopened');
});
