// A message cut off before its first block (a kill or a close right after message_start)
// is a message the conversation never had: messages(), envelopes(), turns() and
// buildContext() leave it out, while the stored record stays as it was written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openStore, tempDir, helper, killAfterFirstLine, ON_POSTGRES } from './helpers/common.mjs';

const PROMPT = { role: 'user', content: [{ type: 'text', text: 'Run the tests' }] };
const REPLY = {
  role: 'assistant', id: 'msg_empty_1', model: 'claude-sonnet-4-5', stop_reason: 'tool_use',
  content: [{ type: 'text', text: 'Running them.' }, { type: 'tool_use', id: 'toolu_run', name: 'bash', input: { command: 'npm test' } }],
};

const storedStatuses = (db) => execFileSync('sqlite3', [db, 'SELECT status FROM messages ORDER BY seq'], { encoding: 'utf8' }).trim().split('\n');

test('a kill right after message_start leaves no empty message in the reads', async (t) => {
  const db = path.join(tempDir(t), 'empty.db');
  const child = await killAfterFirstLine(helper('empty-child.mjs'), [db]);
  assert.equal(child.signal, 'SIGKILL');

  const store = openStore(db);
  const s = store.openSession(child.id);
  assert.deepEqual(s.messages(), [PROMPT, REPLY]);
  assert.deepEqual(s.envelopes().map((e) => [e.type, e.status]), [['user', 'complete'], ['assistant', 'complete']]);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 1 }]);
  const context = s.buildContext({ contextWindow: 200000 });
  assert.equal(context.messages.length, 3); // the call's synthetic interrupted result
  assert.ok(!context.debug.repairs.some((r) => r.kind === 'dropped_empty_message'), 'it never reached the builder');
  if (!ON_POSTGRES) assert.deepEqual(storedStatuses(db), ['complete', 'complete', 'interrupted'], 'the record stays'); // read from the file

  // The conversation goes on after it.
  s.appendUserMessage('go on');
  assert.deepEqual(s.messages().map((m) => m.role), ['user', 'assistant', 'user']);
  store.close();
});

test('a close right after message_start leaves no empty message in the reads', async (t) => {
  const db = path.join(tempDir(t), 'empty.db');
  let store = openStore(db);
  let s = store.createSession();
  s.appendUserMessage('Run the tests');
  s.ingest({ type: 'message_start', id: 'msg_cut' });
  s.close();
  store.close();
  if (!ON_POSTGRES) assert.deepEqual(storedStatuses(db), ['complete', 'interrupted']); // read from the file

  store = openStore(db);
  s = store.openSession(store.listSessions()[0].id);
  assert.deepEqual(s.messages(), [PROMPT]);
  assert.deepEqual(s.envelopes().map((e) => e.type), ['user']);
  store.close();
});
