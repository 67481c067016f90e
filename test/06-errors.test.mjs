// Errors: every bad input gets its code, and nothing recorded is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openStore, SessionError, tempStore, runNodeJSON, snapshot, sessionError, helper } from './helpers/common.mjs';

/**
 * streamingSession returns a session holding a finished tool call and an assistant reply
 * whose text is still streaming: the state where losing something would hurt most.
 */
function streamingSession(t) {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('check the build');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use', id: 'toolu_known', name: 'bash', input: { command: 'make' } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10, output_tokens: 2 } });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_known', content: 'ok' });
  s.ingest({ type: 'text', text: 'The build ' });
  return { store, s };
}

const BAD_CHUNKS = [
  [{ type: 'bogus' }, 'INVALID_CHUNK', /"bogus"/],
  [{ type: undefined }, 'INVALID_CHUNK', /unknown chunk type/],
  [{ type: 'text' }, 'INVALID_CHUNK', /'text'/],
  [{ type: 'text', text: 5 }, 'INVALID_CHUNK', /'text'/],
  [{ type: 'thinking' }, 'INVALID_CHUNK', /'thinking'/],
  [{ type: 'signature' }, 'INVALID_CHUNK', /'signature'/],
  [{ type: 'redacted_thinking' }, 'INVALID_CHUNK', /'data'/],
  [{ type: 'error' }, 'INVALID_CHUNK', /'message'/],
  [{ type: 'message_start', id: 5 }, 'INVALID_CHUNK', /'id'/],
  [{ type: 'tool_use', name: 'bash', input: {} }, 'INVALID_CHUNK', /'id'/],
  [{ type: 'tool_use', id: '', name: 'bash', input: {} }, 'INVALID_CHUNK', /'id'/],
  [{ type: 'tool_use', id: 'toolu_2', input: {} }, 'INVALID_CHUNK', /'name'/],
  [{ type: 'tool_use', id: 'toolu_2', name: 'bash' }, 'INVALID_CHUNK', /'input'/],
  [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: 'ls -la' }, 'INVALID_CHUNK', /'input' must be an object/],
  [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: ['ls'] }, 'INVALID_CHUNK', /'input' must be an object/],
  [{ type: 'tool_use_start', name: 'bash' }, 'INVALID_CHUNK', /'id'/],
  [{ type: 'tool_use_delta', partialJson: '{"a"' }, 'INVALID_CHUNK', /tool_use_start/],
  [{ type: 'tool_result', toolUseId: 'toolu_known' }, 'INVALID_CHUNK', /'content'/],
  [{ type: 'tool_result', content: 'x' }, 'INVALID_CHUNK', /'toolUseId'/],
  [{ type: 'tool_result', toolUseId: 'toolu_known', content: 42 }, 'INVALID_CHUNK', /'content'/],
  [{ type: 'tool_result', toolUseId: 'toolu_known', content: [{ type: 'text' }] }, 'INVALID_CHUNK', /'content'.*block 0/],
  [{ type: 'tool_result', toolUseId: 'toolu_known', content: 'x', isError: 'yes' }, 'INVALID_CHUNK', /'isError'/],
  [{ type: 'tool_result', toolUseId: 'toolu_known', content: 'x', raw: 'stdout' }, 'INVALID_CHUNK', /'raw'/],
  [{ type: 'tool_result', toolUseId: 'toolu_nope', content: 'x' }, 'UNKNOWN_TOOL_USE', /toolu_nope/],
  [{ type: 'done', usage: [1, 2] }, 'INVALID_CHUNK', /'usage'/],
  [{ type: 'done', usage: { input_tokens: 'many' } }, 'INVALID_CHUNK', /'usage'/],
];

test('every bad chunk throws its code, names the field, and loses nothing', (t) => {
  const { s } = streamingSession(t);
  const before = snapshot(s);
  for (const [chunk, code, message] of BAD_CHUNKS) {
    assert.throws(() => s.ingest(chunk), sessionError(code, message), JSON.stringify(chunk));
    assert.deepEqual(snapshot(s), before, `after ${JSON.stringify(chunk)}`);
  }
  // The stream goes on as if nothing had happened.
  s.ingest({ type: 'text', text: 'passed.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  assert.deepEqual(s.messages().at(-1), {
    role: 'assistant', content: [{ type: 'text', text: 'The build passed.' }], stop_reason: 'end_turn',
  });
});

test('wrong JavaScript argument types throw TypeError and change nothing', (t) => {
  const { store, s } = streamingSession(t);
  const before = snapshot(s);
  const calls = {
    'ingest(42)': () => s.ingest(42),
    'ingest(null)': () => s.ingest(null),
    "ingest('text')": () => s.ingest('text'),
    'openSession(7)': () => store.openSession(7),
    'openSession()': () => store.openSession(),
    'appendUserMessage(5)': () => s.appendUserMessage(5),
    'appendUserMessage({})': () => s.appendUserMessage({ type: 'text', text: 'not in an array' }),
    "restoreMessages('x')": () => s.restoreMessages('x'),
    'restoreTokenTracker(null)': () => s.restoreTokenTracker(null),
    'openStore(5)': () => openStore(5),
    'openStore({})': () => openStore({ path: '/tmp/x.db' }),
    "createSession('x')": () => store.createSession('x'),
    'listSessions(5)': () => store.listSessions(5),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => e instanceof TypeError && !(e instanceof SessionError), name);
    assert.deepEqual(snapshot(s), before, `after ${name}`);
  }
});

test('streamed tool input that is not valid JSON is kept as raw_input, with input {}', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('write it');
  s.ingest({ type: 'message_start', id: 'msg_1' });
  s.ingest({ type: 'tool_use_start', id: 'toolu_w', name: 'write_file' });
  s.ingest({ type: 'tool_use_delta', partialJson: '{"path": "/tmp/x", ' });
  s.ingest({ type: 'tool_use_delta', partialJson: '"content": "unterminated → ✓' });
  s.ingest({ type: 'done', stopReason: 'max_tokens' });
  assert.deepEqual(s.messages()[1], {
    role: 'assistant',
    id: 'msg_1',
    content: [{
      type: 'tool_use',
      id: 'toolu_w',
      name: 'write_file',
      input: {},
      raw_input: '{"path": "/tmp/x", "content": "unterminated → ✓',
      input_error: 'streamed input is not valid JSON',
    }],
    stop_reason: 'max_tokens',
  });
  assert.equal(s.envelopes()[1].status, 'complete');
  // The tool_use is recorded, so its result can still be given.
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_w', content: 'invalid input', isError: true });
  assert.equal(s.messages().length, 3);
});

test('every call on a closed session throws (or rejects with) STORE_CLOSED', async (t) => {
  const { s } = streamingSession(t);
  s.close();
  const closed = sessionError('STORE_CLOSED', /closed/);
  assert.throws(() => s.messages(), closed);
  assert.throws(() => s.envelopes(), closed);
  assert.throws(() => s.turns(), closed);
  assert.throws(() => s.tokenTracker(), closed);
  assert.throws(() => s.ingest({ type: 'text', text: 'x' }), closed);
  assert.throws(() => s.appendUserMessage('x'), closed);
  assert.throws(() => s.restoreMessages([]), closed);
  assert.throws(() => s.restoreTokenTracker({ inputTokens: 1 }), closed);
  await assert.rejects(() => s.messagesAsync(), closed);
  await assert.rejects(() => s.envelopesAsync(), closed);
  await assert.rejects(() => s.flush(), closed);
  s.close(); // closing again is a no-op
});

test('every call on a closed store, and on its sessions, throws STORE_CLOSED', async (t) => {
  const { store, s } = streamingSession(t);
  const id = s.id;
  store.close();
  const closed = sessionError('STORE_CLOSED');
  assert.throws(() => store.createSession(), closed);
  assert.throws(() => store.openSession(id), closed);
  assert.throws(() => store.listSessions(), closed);
  assert.throws(() => s.messages(), closed);
  assert.throws(() => s.ingest({ type: 'text', text: 'x' }), closed);
  await assert.rejects(() => s.flush(), closed);
  store.close(); // closing again is a no-op
});

test('store.flush() on a closed store rejects with STORE_CLOSED', async (t) => {
  const { store } = tempStore(t);
  store.close();
  await assert.rejects(() => store.flush(), sessionError('STORE_CLOSED'));
});

test('a closed Session object throws STORE_CLOSED while another object over the same id is open', (t) => {
  const { store } = tempStore(t);
  const a = store.createSession();
  a.appendUserMessage('hello');
  const b = store.openSession(a.id);
  a.close();
  assert.equal(b.messages().length, 1);
  assert.throws(() => a.messages(), sessionError('STORE_CLOSED'));
});

test('closing one Session object twice does not close another over the same id', (t) => {
  const { store } = tempStore(t);
  const a = store.createSession();
  a.appendUserMessage('hello');
  const b = store.openSession(a.id);
  a.close();
  a.close();
  assert.deepEqual(b.messages(), [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
});

test('openSession of an unknown id throws SESSION_NOT_FOUND and the store goes on', (t) => {
  const { store } = tempStore(t);
  assert.throws(() => store.openSession('nope'), sessionError('SESSION_NOT_FOUND', /"nope"/));
  assert.equal(store.listSessions().length, 0);
  store.createSession().appendUserMessage('fine');
  assert.equal(store.listSessions().length, 1);
});

test('other bad values: INVALID_ARGUMENT for options, INVALID_MESSAGE for content', (t) => {
  const { store, s } = streamingSession(t);
  const before = snapshot(s);
  assert.throws(() => store.listSessions({ limit: -1 }), sessionError('INVALID_ARGUMENT', /limit/));
  assert.throws(() => store.listSessions({ limit: 'ten' }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.createSession({ contextWindow: -5 }), sessionError('INVALID_ARGUMENT', /contextWindow/));
  assert.throws(() => s.appendUserMessage([{ type: 'document', source: { data: 'x' } }]), sessionError('INVALID_MESSAGE', /source/));
  assert.deepEqual(snapshot(s), before);
});

test('misusing the addon, raw native functions included, never crashes the process', async (t) => {
  const { dir } = tempStore(t);
  const outcomes = await runNodeJSON(helper('misuse-child.mjs'), [path.join(dir, 'misuse.db')]);
  const { 'messages after all that': last, ...calls } = outcomes;
  for (const [call, outcome] of Object.entries(calls)) {
    assert.notEqual(outcome, 'returned', `${call} should have thrown`);
  }
  for (const call of ['messages()', 'messages({})', 'messages(42)', 'messages(storeHandle)', 'createSession(sessionHandle)']) {
    assert.equal(outcomes[call], 'TypeError:ERR_INVALID_ARG_TYPE', call);
  }
  assert.equal(outcomes['messages(closed session)'], 'SessionError:STORE_CLOSED');
  assert.equal(outcomes['createSession(closed store)'], 'SessionError:STORE_CLOSED');
  assert.equal(outcomes['ingestToolResult(session, id, not JSON)'], 'SessionError:INVALID_CHUNK');
  assert.deepEqual(last, [{ role: 'user', content: [{ type: 'text', text: 'still works' }] }]);
});
