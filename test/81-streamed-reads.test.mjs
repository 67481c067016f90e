// Async reads stream a session to JavaScript in parts of about 64 KB, one part an
// event-loop turn, encoding the next while this one is parsed. On a session of many parts
// (8 MB of tool output in several scripts), read back from a store reopened on the file, the
// async forms must give exactly what the synchronous ones do, leave the event loop turning,
// and settle (with the result or a coded error) when the session or store is closed under
// them: a stream that crashed, hung or lost a part would show here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, runNode, helper } from './helpers/common.mjs';

let dir;
let db;
let id;

/** A line of tool output in several scripts: accents, arrows, checks, emoji (surrogate pairs), CJK, quotes. */
const LINE = 'résumé → ✓ 🚀🧪 漢字テスト 한국어 "quoted" back\\slash\ttab ';
const RESULT_CHARS = 100_000;
const ROUNDS = 80; // 80 × 100 K characters: about 8 MB of text, far more in escaped ASCII parts
const RECORDS = 3 * ROUNDS + 2; // a prompt, a reply with its tool call and the result a round; the summary
const SUMMARY = 'All 80 steps passed ✓ 🎉';
const body = (i) => `${i}:` + LINE.repeat(Math.ceil(RESULT_CHARS / LINE.length));

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-streamed-'));
  db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  const s = store.createSession({ projectPath: '/work/streamed' });
  for (let i = 0; i < ROUNDS; i++) {
    s.appendUserMessage(`Step ${i}: run the suite → report`);
    s.ingest({ type: 'message_start', id: `msg_${i}`, model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'thinking', thinking: `Step ${i} 🤔` });
    for (let d = 0; d < 20; d++) s.ingest({ type: 'text', text: `chunk ${d} ✓ ` });
    s.ingest({ type: 'tool_use', id: `toolu_${i}`, name: 'bash', input: { command: `npm test -- ${i}`, note: '漢字' } });
    s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1000 + i, output_tokens: 50 } });
    if (i % 2 === 0) {
      s.ingest({ type: 'tool_result', toolUseId: `toolu_${i}`, content: body(i), raw: { exitCode: 0 } });
    } else {
      s.appendUserMessage([{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: [{ type: 'text', text: body(i) }, { type: 'text', text: '✓ done' }] }]);
    }
  }
  s.appendUserMessage('And the summary?');
  s.ingest({ type: 'message_start', id: 'msg_last', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: SUMMARY });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  id = s.id;
  store.close();
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** reopen opens the session from a new store object on the file. */
function reopen(t) {
  const store = openStore(db);
  t.after(() => store.close());
  return store.openSession(id);
}

test('envelopesAsync, messagesAsync and tailAsync equal their synchronous forms on a session of many parts', async (t) => {
  const s = reopen(t);
  const envelopes = s.envelopes();
  const messages = s.messages();
  assert.equal(envelopes.length, RECORDS);
  assert.ok(JSON.stringify(envelopes).length > 8e6, 'several megabytes, so several parts');
  // The text came back whole: the part boundaries cut no message and no character.
  for (let i = 0; i < ROUNDS; i++) {
    const result = messages[3 * i + 2].content[0];
    assert.equal(i % 2 === 0 ? result.content : result.content[0].text, body(i), `tool output ${i}`);
  }
  assert.equal(messages[1].content[1].text, Array.from({ length: 20 }, (_, d) => `chunk ${d} ✓ `).join(''));

  assert.deepEqual(await s.envelopesAsync(), envelopes);
  assert.deepEqual(await s.messagesAsync(), messages);
  for (const n of [1, 3, 13, 41, envelopes.length, envelopes.length + 5]) {
    const want = s.tail(n);
    assert.deepEqual(want, envelopes.slice(-n));
    assert.deepEqual(await s.tailAsync(n), want, `tailAsync(${n})`);
  }

  // Several reads in flight at once each get their own, complete result.
  const [e, m, tl] = await Promise.all([s.envelopesAsync(), s.messagesAsync(), s.tailAsync(30)]);
  assert.deepEqual(e, envelopes);
  assert.deepEqual(m, messages);
  assert.deepEqual(tl, envelopes.slice(-30));
});

test('the event loop keeps turning while envelopesAsync() streams its parts', async (t) => {
  const s = reopen(t);
  let turns = 0;
  let reading = true;
  const spin = () => {
    turns++;
    if (reading) setImmediate(spin);
  };
  setImmediate(spin);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const envelopes = await s.envelopesAsync();
  reading = false;
  clearInterval(timer);
  assert.equal(envelopes.length, RECORDS);
  // Over 8 MB crosses in parts, one a turn: at least a turn between parts.
  assert.ok(turns >= 8, `setImmediate ran ${turns} times during the read`);
  assert.ok(ticks >= 1, `a 1 ms interval ran ${ticks} times during the read`);
});

test('closing the session or the store under an async read settles it (result or STORE_CLOSED), never a crash or hang', async () => {
  const r = await runNode(helper('read-close-child.mjs'), [db, id], { timeoutMs: 20000 });
  assert.equal(r.signal, null, `the child was killed (a hang?): ${r.stderr}`);
  assert.equal(r.code, 0, r.stderr);
  const cases = JSON.parse(r.stdout);
  assert.equal(cases.full.length, RECORDS);
  const complete = { length: RECORDS, last: cases.full.last };
  const completeMessages = { length: RECORDS, last: SUMMARY };
  const settledWell = (name, c, full) => {
    if (c.ok) {
      assert.deepEqual({ length: c.length, last: c.last }, full, `${name}: a result must be complete`);
    } else {
      assert.equal(c.name, 'SessionError', `${name}: ${c.name}: ${c.message}`);
      assert.equal(c.code, 'STORE_CLOSED', `${name}: ${c.message}`);
    }
  };
  settledWell('envelopesAsync, session closed at once', cases.sessionCloseAtOnce, complete);
  settledWell('envelopesAsync, store closed at once', cases.storeCloseAtOnce, complete);
  settledWell('messagesAsync, session closed after 3 turns', cases.sessionCloseAfterTurns, completeMessages);
  settledWell('envelopesAsync, store closed after 3 turns', cases.storeCloseAfterTurns, complete);
  settledWell('tailAsync, store closed by a 5 ms timer', cases.storeCloseOnTimer, complete);
  const [e, m, tl] = cases.concurrent;
  settledWell('concurrent envelopesAsync', e, complete);
  settledWell('concurrent messagesAsync', m, completeMessages);
  settledWell('concurrent tailAsync', tl, { length: 10, last: cases.full.last });
  assert.deepEqual(cases.workerTerminated, { first: { reading: true } }, 'the worker was mid-read when terminated');
});
