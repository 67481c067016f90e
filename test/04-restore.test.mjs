// session.restoreMessages: seeding a new session from structured messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempStore, runNodeJSON, dumpInChild, snapshot, sessionError, helper } from './helpers/common.mjs';
import {
  recordEveryBlock, everyBlockMessages, EVERY_TURNS, EVERY_TRACKER,
  recordSeed000, SEED000_MESSAGES, SEED000_TRACKER,
} from './helpers/fixtures.mjs';

test('restoreMessages of messages() gives the same messages, turns and tracker, also in another process', async (t) => {
  const { db, store } = tempStore(t);
  const original = store.createSession();
  recordEveryBlock(original);
  const messages = original.messages();

  const restored = store.createSession();
  restored.restoreMessages(messages);
  assert.deepEqual(restored.messages(), messages);
  assert.deepEqual(restored.messages(), everyBlockMessages());
  assert.deepEqual(restored.turns(), original.turns());
  assert.deepEqual(restored.turns(), EVERY_TURNS);
  assert.deepEqual(restored.tokenTracker(), original.tokenTracker());
  assert.deepEqual(restored.tokenTracker(), EVERY_TRACKER);
  assert.deepEqual(restored.envelopes().map((e) => [e.type, e.turn, e.status]), [
    ['user', 0, 'complete'], ['assistant', 0, 'complete'], ['tool_result', 0, 'complete'], ['assistant', 0, 'complete'], ['user', 1, 'complete'],
  ]);
  const [info] = store.listSessions({ limit: 1 });
  assert.equal(info.id, restored.id);
  assert.equal(info.title, 'Review these attachments → and tell me what is wrong ✓');
  assert.equal(info.messageCount, 5);
  await store.flush();

  store.close();
  const there = await dumpInChild(db, restored.id);
  assert.deepEqual(there.messages, messages);
  assert.deepEqual(there.turns, EVERY_TURNS);
  assert.deepEqual(there.tokenTracker, EVERY_TRACKER);
});

test('a session restored by a process that then exited reads back the same in another', async (t) => {
  const { db, dir } = tempStore(t);
  const file = path.join(dir, 'seed000-messages.json');
  fs.writeFileSync(file, JSON.stringify(SEED000_MESSAGES));
  const { id } = await runNodeJSON(helper('restore-child.mjs'), [db, file]);

  const store = openStore(db);
  t.after(() => store.close());
  const s = store.openSession(id);
  assert.deepEqual(s.messages(), SEED000_MESSAGES);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 3 }]);
  assert.deepEqual(s.tokenTracker(), SEED000_TRACKER);
  // The restoring process ended normally, so nothing is reported interrupted.
  assert.deepEqual(s.envelopes().map((e) => e.status), ['complete', 'complete', 'complete', 'complete']);
  assert.equal(store.listSessions()[0].status, 'active');
});

test('the token tracker is derived from the usages of the restored messages', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.restoreMessages([
    { role: 'user', content: 'hi' }, // string content becomes one text block
    { role: 'assistant', content: [{ type: 'text', text: 'a' }], usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 } },
    { role: 'user', content: [{ type: 'text', text: 'again' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'b' }], usage: { input_tokens: 20, output_tokens: 1, cache_read_input_tokens: 3 } },
    { role: 'assistant', content: [{ type: 'text', text: 'no usage' }], stop_reason: 'max_tokens' },
  ]);
  assert.deepEqual(s.tokenTracker(), {
    inputTokens: 30, outputTokens: 6, cacheReadInputTokens: 103, cacheCreationInputTokens: 7, contextTokens: 23,
  });
  assert.deepEqual(s.messages()[0], { role: 'user', content: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual(s.messages()[4], { role: 'assistant', content: [{ type: 'text', text: 'no usage' }], stop_reason: 'max_tokens' });
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 1 }, { index: 1, startIndex: 2, endIndex: 4 }]);
});

test('a restored user message that carries tool results stays in the assistant turn', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.restoreMessages([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }, { type: 'text', text: 'and hurry' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'a.txt' }] },
    { role: 'user', content: 'next' },
  ]);
  assert.deepEqual(s.envelopes().map((e) => [e.type, e.turn]), [
    ['user', 0], ['assistant', 0], ['tool_result', 0], ['assistant', 0], ['user', 1],
  ]);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 3 }, { index: 1, startIndex: 4, endIndex: 4 }]);
});

test('a restored session continues: its tool_use ids are known to tool_result chunks', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.restoreMessages(SEED000_MESSAGES.slice(0, 2));
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_01ReadConfig', content: '{"port": 8080, "host": "localhost"}' });
  s.ingest({ type: 'text', text: 'The config uses port 8080.' });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage: SEED000_MESSAGES[3].usage });
  assert.deepEqual(s.messages(), SEED000_MESSAGES);
  assert.deepEqual(s.tokenTracker(), SEED000_TRACKER);
  assert.equal(s.envelopes()[2].parentUuid, s.envelopes()[1].uuid);
});

test('restoreMessages on a non-empty session throws SESSION_NOT_EMPTY and changes nothing', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const before = snapshot(s);
  assert.throws(() => s.restoreMessages(SEED000_MESSAGES), sessionError('SESSION_NOT_EMPTY', /new session/));
  assert.throws(() => s.restoreMessages([]), sessionError('SESSION_NOT_EMPTY'));
  assert.deepEqual(snapshot(s), before);

  // Also when the session is opened afresh from the file.
  await s.flush();
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.throws(() => reopened.restoreMessages(SEED000_MESSAGES), sessionError('SESSION_NOT_EMPTY'));
  assert.deepEqual(snapshot(reopened), before);
});

test('restoreMessages validates everything before it records anything', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const bad = [
    [{ role: 'system', content: 'x' }, /messages\[0\]\.role/],
    [[{ role: 'user', content: 'ok' }, { role: 'assistant', content: 5 }], /messages\[1\]\.content/],
    [[{ role: 'user', content: 'ok' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'y' }] }], /messages\[1\]\.content\[0\].*input/],
    [[{ role: 'assistant', content: [{ type: 'text', text: 'x' }], usage: 'lots' }], /usage/],
    [['not an object'], /messages/],
    [[{ role: 'user', content: null }], /messages\[0\]\.content/],
    [[{ role: 'user', content: 'ok' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'y', input: 'ls' }] }], /messages\[1\]\.content\[0\].*input.*object/],
  ];
  for (const [messages, message] of bad) {
    assert.throws(() => s.restoreMessages(Array.isArray(messages) ? messages : [messages]), sessionError('INVALID_MESSAGE', message));
    assert.deepEqual(s.messages(), []);
  }
  assert.throws(() => s.restoreMessages('x'), TypeError);
  assert.throws(() => s.restoreMessages({ length: 0 }), TypeError);
  s.restoreMessages([{ role: 'user', content: 'still empty, so this works' }]);
  assert.equal(s.messages().length, 1);
});

test('restored messages are stored complete, and flush resolves', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.restoreMessages(SEED000_MESSAGES);
  assert.equal(await s.flush(), undefined);
  assert.equal(await store.flush(), undefined);
  assert.deepEqual(s.envelopes().map((e) => e.status), ['complete', 'complete', 'complete', 'complete']);
  assert.deepEqual(s.envelopes().map((e) => e.type), ['user', 'assistant', 'tool_result', 'assistant']);
});

test('restoreTokenTracker replaces the accounting, is stored, and later usage adds to it', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const tracker = { inputTokens: 150000, outputTokens: 9000, cacheReadInputTokens: 70000, cacheCreationInputTokens: 1200, contextTokens: 151000 };
  s.restoreTokenTracker(tracker);
  assert.deepEqual(s.tokenTracker(), tracker);
  assert.deepEqual(s.messages(), SEED000_MESSAGES, 'messages are untouched');

  s.appendUserMessage('more');
  s.ingest({ type: 'text', text: 'ok' });
  s.ingest({ type: 'done', usage: { input_tokens: 100, output_tokens: 5, cache_read_input_tokens: 150000 } });
  const expected = { inputTokens: 150100, outputTokens: 9005, cacheReadInputTokens: 220000, cacheCreationInputTokens: 1200, contextTokens: 150100 };
  assert.deepEqual(s.tokenTracker(), expected);

  await s.flush();
  const there = await dumpInChild(db, s.id);
  assert.deepEqual(there.tokenTracker, expected, 'never reset to zero on resume');
  assert.throws(() => s.restoreTokenTracker('lots'), TypeError);
});
