// Round trips across processes: what one process records, another reads back exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  openStore, tempDir, tempStore, runNodeJSON, dumpInChild, snapshot, helper, UUID_V7, ISO_MS,
} from './helpers/common.mjs';
import {
  SEED000_MESSAGES, SEED000_TURNS, SEED000_TRACKER, SEED000_RAW,
  recordEveryBlock, everyBlockMessages, everyBlockToolUseResults, EVERY_TURNS, EVERY_TRACKER, PNG, PNG_B64,
} from './helpers/fixtures.mjs';

test('seed 000 streamed in a child process comes back whole in another', async (t) => {
  const db = path.join(tempDir(t), 'seed000.db');
  const child = await runNodeJSON(helper('seed000-child.mjs'), [db]);
  assert.match(child.id, UUID_V7);

  const store = openStore(db);
  t.after(() => store.close());
  const s = store.openSession(child.id);
  const messages = s.messages();
  const turns = s.turns();
  const tracker = s.tokenTracker();

  // What the child read before it exited…
  assert.deepEqual(messages, child.messages);
  assert.deepEqual(turns, child.turns);
  assert.deepEqual(tracker, child.tokenTracker);
  assert.deepEqual(s.envelopes(), child.envelopes);
  // …and the blocks of seed 000 as written out by hand.
  assert.deepEqual(messages, SEED000_MESSAGES);
  assert.deepEqual(turns, SEED000_TURNS);
  assert.deepEqual(tracker, SEED000_TRACKER);

  const env = s.envelopes();
  assert.deepEqual(env.map((e) => e.type), ['user', 'assistant', 'tool_result', 'assistant']);
  assert.deepEqual(env.map((e) => e.status), ['complete', 'complete', 'complete', 'complete']);
  assert.deepEqual(env.map((e) => e.turn), [0, 0, 0, 0]);
  env.forEach((e, i) => {
    assert.match(e.uuid, UUID_V7);
    assert.match(e.timestamp, ISO_MS);
    assert.equal(e.sessionId, child.id);
    assert.equal(e.parentUuid, i === 0 ? null : env[i - 1].uuid);
    assert.deepEqual(e.message, SEED000_MESSAGES[i]);
    assert.equal(e.provider, 'claude');
  });
  assert.deepEqual(env.map((e) => e.uuid), env.map((e) => e.uuid).toSorted(), 'uuids are time ordered');
  assert.equal(new Set(env.map((e) => e.uuid)).size, 4);
  assert.equal(env[1].requestId, 'req_011SeedConfigPort');
  assert.deepEqual(env[2].toolUseResults, { toolu_01ReadConfig: SEED000_RAW });
  assert.equal('toolUseResults' in env[1], false);

  const [info] = store.listSessions();
  assert.equal(info.id, child.id);
  assert.equal(info.title, 'Read the config file and tell me what port it uses');
  assert.equal(info.messageCount, 4);
  assert.equal(info.status, 'active');
});

test('every block type, a 5 MB tool output and raw bytes round-trip through another process', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ projectPath: '/work/every-block' });
  recordEveryBlock(s);
  const here = snapshot(s);
  await s.flush();

  assert.deepEqual(here.messages, everyBlockMessages());
  assert.deepEqual(here.turns, EVERY_TURNS);
  assert.deepEqual(here.tokenTracker, EVERY_TRACKER);
  assert.deepEqual(here.envelopes.map((e) => [e.type, e.status]), [
    ['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'complete'], ['assistant', 'complete'], ['user', 'complete'],
  ]);
  assert.deepEqual(here.envelopes[2].toolUseResults, everyBlockToolUseResults());

  const there = await dumpInChild(db, s.id);
  assert.deepEqual(there.messages, here.messages);
  assert.deepEqual(there.turns, here.turns);
  assert.deepEqual(there.tokenTracker, here.tokenTracker);
  assert.deepEqual(there.envelopes, here.envelopes);

  // Spot checks that a deep-equal of two wrong copies could not hide.
  const big = there.messages[2].content[0].content;
  assert.ok(Buffer.byteLength(big) >= 5 * 1024 * 1024);
  assert.ok(big.includes('→') && big.includes('✓') && big.includes('«ok»'));
  assert.equal(there.messages[4].content[1].source.type, 'base64');
  assert.deepEqual(Buffer.from(there.messages[4].content[1].source.data, 'base64'), PNG);
});

test('raw bytes: a Buffer or Uint8Array source comes back as a base64 string of type base64', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
  const env = s.appendUserMessage([
    { type: 'image', source: { type: 'raw', media_type: 'image/png', data: PNG } },
    { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: new Uint8Array(bytes) } },
    { type: 'document', source: { type: 'raw', media_type: 'application/octet-stream', data: bytes.subarray(3, 6) } },
  ]);
  const expected = [
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
    { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: bytes.toString('base64') } },
    { type: 'document', source: { type: 'base64', media_type: 'application/octet-stream', data: Buffer.from([250, 251, 252]).toString('base64') } },
  ];
  assert.deepEqual(env.message.content, expected);
  assert.deepEqual(s.messages()[0].content, expected);
});

test('a tool_result may answer a tool_use recorded by another process', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('run it');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use', id: 'toolu_elsewhere', name: 'bash', input: { command: 'date' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  store.close();

  const other = openStore(db);
  t.after(() => other.close());
  const again = other.openSession(s.id);
  again.ingest({ type: 'tool_result', toolUseId: 'toolu_elsewhere', content: 'Fri Nov 21' });
  assert.throws(() => again.ingest({ type: 'tool_result', toolUseId: 'toolu_never', content: 'x' }), { code: 'UNKNOWN_TOOL_USE' });
  assert.deepEqual(again.messages().at(-1).content, [
    { type: 'tool_result', tool_use_id: 'toolu_elsewhere', content: 'Fri Nov 21', is_error: false },
  ]);
});
