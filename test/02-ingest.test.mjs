// session.ingest and session.appendUserMessage: how stream chunks become messages and blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sessionError, UUID_V7, ISO_MS } from './helpers/common.mjs';

const statuses = (s) => s.envelopes().map((e) => [e.type, e.status]);

test('text and thinking deltas join into one block until the kind changes', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('hi');
  s.ingest({ type: 'message_start', id: 'msg_1', model: 'm' });
  for (const piece of ['Hm', 'm, ', 'let me think.']) s.ingest({ type: 'thinking', thinking: piece });
  for (const piece of ['Hel', 'lo ', '→ world ✓']) s.ingest({ type: 'text', text: piece });
  s.ingest({ type: 'thinking', thinking: 'again' });
  s.ingest({ type: 'text', text: 'bye' });
  s.ingest({ type: 'done', stopReason: 'end_turn', stopSequence: '\n\nHuman:', usage: { input_tokens: 3, output_tokens: 4, service_tier: 'standard' } });
  assert.deepEqual(s.messages()[1], {
    role: 'assistant',
    id: 'msg_1',
    model: 'm',
    content: [
      { type: 'thinking', thinking: 'Hmm, let me think.' },
      { type: 'text', text: 'Hello → world ✓' },
      { type: 'thinking', thinking: 'again' },
      { type: 'text', text: 'bye' },
    ],
    stop_reason: 'end_turn',
    stop_sequence: '\n\nHuman:',
    usage: { input_tokens: 3, output_tokens: 4, service_tier: 'standard' },
  });
});

test('a signature ends its thinking block; alone, it makes a thinking block with empty text', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('hi');
  s.ingest({ type: 'thinking', thinking: 'a' });
  s.ingest({ type: 'signature', signature: 'sig_a' });
  s.ingest({ type: 'thinking', thinking: 'b' });
  s.ingest({ type: 'text', text: 'x' });
  s.ingest({ type: 'signature', signature: 'sig_lonely' });
  s.ingest({ type: 'redacted_thinking', data: 'opaque==' });
  s.ingest({ type: 'done' });
  assert.deepEqual(s.messages()[1].content, [
    { type: 'thinking', thinking: 'a', signature: 'sig_a' },
    { type: 'thinking', thinking: 'b' },
    { type: 'text', text: 'x' },
    { type: 'thinking', thinking: '', signature: 'sig_lonely' },
    { type: 'redacted_thinking', data: 'opaque==' },
  ]);
});

test('streamed tool_use input is parsed at block end; empty input is {}', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  s.ingest({ type: 'tool_use_start', id: 'toolu_1', name: 'edit' });
  for (const p of ['{"file', '": "a.ts", "lines": [1, ', '2], "note": "→"}']) s.ingest({ type: 'tool_use_delta', partialJson: p });
  s.ingest({ type: 'tool_use_start', id: 'toolu_2', name: 'noargs' });
  s.ingest({ type: 'tool_use_delta', partialJson: '' });
  s.ingest({ type: 'tool_use', id: 'toolu_3', name: 'whole', input: { deep: { list: [null, true, 1.5] } } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  assert.deepEqual(s.messages()[1].content, [
    { type: 'tool_use', id: 'toolu_1', name: 'edit', input: { file: 'a.ts', lines: [1, 2], note: '→' } },
    { type: 'tool_use', id: 'toolu_2', name: 'noargs', input: {} },
    { type: 'tool_use', id: 'toolu_3', name: 'whole', input: { deep: { list: [null, true, 1.5] } } },
  ]);
});

test('tool results form one user message (type tool_result); is_error is always present', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use', id: 'a', name: 'n', input: {} });
  s.ingest({ type: 'tool_use', id: 'b', name: 'n', input: {} });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 'a', content: 'fine' });
  s.ingest({ type: 'tool_result', toolUseId: 'b', content: [{ type: 'text', text: 'bad' }], isError: true, raw: { exitCode: 2 } });
  s.ingest({ type: 'text', text: 'next' });
  const m = s.messages();
  assert.equal(m.length, 4);
  assert.deepEqual(m[2], {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'a', content: 'fine', is_error: false },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'bad' }], is_error: true },
    ],
  });
  const env = s.envelopes();
  assert.equal(env[2].type, 'tool_result');
  assert.deepEqual(env[2].toolUseResults, { b: { exitCode: 2 } }, 'only results that came with raw have a record');
});

test('model output after tool results starts a new assistant message without message_start', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ provider: 'claude' });
  s.appendUserMessage('go');
  s.ingest({ type: 'message_start', id: 'msg_1', requestId: 'req_1' });
  s.ingest({ type: 'tool_use', id: 'a', name: 'n', input: {} });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 'a', content: 'ok' });
  s.ingest({ type: 'text', text: 'second' });
  assert.deepEqual(statuses(s), [['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'complete'], ['assistant', 'streaming']]);
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  const env = s.envelopes();
  assert.deepEqual(env[3].message, { role: 'assistant', content: [{ type: 'text', text: 'second' }], stop_reason: 'end_turn' });
  assert.equal(env[3].status, 'complete');
  assert.equal(env[1].requestId, 'req_1');
  assert.equal(env[3].requestId, undefined);
  assert.equal(env[3].provider, 'claude', 'the session provider is the default');
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 3 }]);
});

test('a new message_start or prompt cuts off an unfinished assistant message as interrupted', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('one');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'text', text: 'cut by a retry' });
  s.ingest({ type: 'message_start', id: 'msg_2' });
  s.ingest({ type: 'text', text: 'cut by the user' });
  s.appendUserMessage('two');
  assert.deepEqual(statuses(s), [['user', 'complete'], ['assistant', 'interrupted'], ['assistant', 'interrupted'], ['user', 'complete']]);
  assert.deepEqual(s.messages().map((m) => m.content), [
    [{ type: 'text', text: 'one' }],
    [{ type: 'text', text: 'cut by a retry' }],
    [{ type: 'text', text: 'cut by the user' }],
    [{ type: 'text', text: 'two' }],
  ]);
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 2 }, { index: 1, startIndex: 3, endIndex: 3 }]);
});

test('an error chunk ends the message with status error, keeping what arrived', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('one');
  s.ingest({ type: 'text', text: 'half an ans' });
  s.ingest({ type: 'error', message: 'overloaded_error: Overloaded' });
  const env = s.envelopes()[1];
  assert.equal(env.status, 'error');
  assert.equal(env.error, 'overloaded_error: Overloaded');
  assert.deepEqual(env.message.content, [{ type: 'text', text: 'half an ans' }]);
});

test('messages() includes a block still streaming, as far as it has come', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('one');
  s.ingest({ type: 'text', text: 'so far' });
  assert.deepEqual(s.messages()[1], { role: 'assistant', content: [{ type: 'text', text: 'so far' }] });
  assert.equal(s.envelopes()[1].status, 'streaming');
  s.ingest({ type: 'text', text: ', and more' });
  assert.deepEqual(s.messages()[1].content, [{ type: 'text', text: 'so far, and more' }]);
});

test('appendUserMessage returns the envelope envelopes() shows; a string becomes one text block', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ provider: 'openai' });
  const e1 = s.appendUserMessage('first line\nsecond line');
  const e2 = s.appendUserMessage([{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }]);
  assert.match(e1.uuid, UUID_V7);
  assert.match(e1.timestamp, ISO_MS);
  assert.equal(e1.parentUuid, null);
  assert.equal(e2.parentUuid, e1.uuid);
  assert.equal(e1.sessionId, s.id);
  assert.equal(e1.provider, 'openai');
  assert.deepEqual([e1.turn, e2.turn], [0, 1]);
  assert.deepEqual(e1.message, { role: 'user', content: [{ type: 'text', text: 'first line\nsecond line' }] });
  assert.deepEqual(s.envelopes(), [e1, e2]);
});

test('appendUserMessage validates blocks and records nothing when one is bad', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('ok');
  const before = s.messages();
  assert.throws(() => s.appendUserMessage([]), sessionError('INVALID_MESSAGE'));
  assert.throws(() => s.appendUserMessage([{ type: 'text', text: 'fine' }, { type: 'text' }]), sessionError('INVALID_MESSAGE', /content\[1\].*"text"/));
  assert.throws(() => s.appendUserMessage([{ type: 'image', source: 'nope' }]), sessionError('INVALID_MESSAGE', /source/));
  assert.throws(() => s.appendUserMessage([{ text: 'no type' }]), sessionError('INVALID_MESSAGE', /type/));
  assert.throws(() => s.appendUserMessage([{ type: 'tool_result', tool_use_id: 'missing', content: 'x' }]), sessionError('UNKNOWN_TOOL_USE', /missing/));
  assert.deepEqual(s.messages(), before);
});

test('a tool_result right after a streamed tool_use (no done in between) is accepted', (t) => {
  // Agents run a tool as soon as its input block ends; there is no tool_use_stop chunk, so
  // the tool_result can be the next chunk.
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use_start', id: 'toolu_1', name: 'bash' });
  s.ingest({ type: 'tool_use_delta', partialJson: '{"cmd": "ls"}' });
  assert.deepEqual(s.messages()[1].content, [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } }]);
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_1', content: 'a.txt' });
  assert.deepEqual(s.messages().slice(1), [
    { role: 'assistant', id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt', is_error: false }] },
  ]);
  assert.deepEqual(statuses(s), [['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'streaming']]);
});

test('tool results given to appendUserMessage end the calling assistant message as complete, like tool_result chunks', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} });
  const env = s.appendUserMessage([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }]);
  assert.equal(env.type, 'tool_result');
  assert.equal(env.turn, 0, 'tool results do not start a turn');
  assert.deepEqual(env.message.content, [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }], 'kept as given');
  assert.deepEqual(statuses(s), [['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'complete']]);
});

test('a user message carrying tool results and text stays in the assistant turn', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  s.ingest({ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  const env = s.appendUserMessage([
    { type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' },
    { type: 'text', text: 'also, be brief' },
  ]);
  assert.deepEqual([env.type, env.turn], ['tool_result', 0]);
  assert.throws(() => s.appendUserMessage([{ type: 'text', text: 'x' }, { type: 'tool_result', tool_use_id: 'toolu_zz', content: 'x' }]),
    sessionError('UNKNOWN_TOOL_USE', /toolu_zz/));
  assert.equal(s.appendUserMessage('a real prompt').turn, 1);
});
