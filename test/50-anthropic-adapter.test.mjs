// fromAnthropicStream: every recorded Anthropic stream, parsed by the real @anthropic-ai/sdk
// (its MessageStream and its raw Stream), recorded into a store, and read back after
// reopening it, block for block against the message the SDK itself assembles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { openStore, sk, tempStore } from './helpers/common.mjs';
import { cassetteBody, fixtures, jsonLinesToSSE, readFixture, replayFetch } from './helpers/sse.mjs';

const { fromAnthropicStream } = sk;

/** Every Anthropic capture, as the SSE body the API sent. */
const CAPTURES = [
  ...fixtures('anthropics__').map((f) => [f, readFixture(f)]),
  ...fixtures('pydantic__').map((f) => [f, cassetteBody(readFixture(f))]),
  ...fixtures('vercel__ai__packages__anthropic').map((f) => [f, jsonLinesToSSE(readFixture(f))[0]]),
];

const PARAMS = { model: 'claude-fixture', max_tokens: 1024, messages: [{ role: 'user', content: 'Go' }] };

function client(body) {
  const { fetch } = replayFetch([body], { 'request-id': 'req_fixture_01' });
  return new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 });
}

/** recorded reopens the store and returns the session's last envelope and tracker as stored. */
function reopened(db, id) {
  const store = openStore(db);
  try {
    const s = store.openSession(id);
    return { messages: s.messages(), envelopes: s.envelopes(), tracker: s.tokenTracker() };
  } finally {
    store.close();
  }
}

/**
 * expectedBlock is the SDK's block as sessionkeep keeps it. The two differ only for a
 * tool_use whose input never finished streaming (no content_block_stop): the SDK shows a
 * partial parse of the JSON so far, sessionkeep keeps the text as raw_input.
 */
function expectedBlock(block) {
  const plain = JSON.parse(JSON.stringify(block));
  if (typeof block.__json_buf === 'string' && Object.getOwnPropertyDescriptor(block, 'input')?.get) {
    let complete = true;
    try {
      JSON.parse(block.__json_buf);
    } catch {
      complete = false;
    }
    if (!complete) return { ...plain, input: {}, raw_input: block.__json_buf, input_error: 'streamed input is not valid JSON' };
  }
  return plain;
}

function checkAgainstSDK(stored, envelope, tracker, final) {
  const m = stored.at(-1);
  assert.equal(m.role, 'assistant');
  assert.equal(m.id, final.id);
  assert.equal(m.model, final.model);
  assert.equal(m.stop_reason, final.stop_reason);
  assert.equal(m.stop_sequence ?? null, final.stop_sequence);
  assert.deepEqual(m.usage, JSON.parse(JSON.stringify(final.usage)));
  assert.equal(m.content.length, final.content.length);
  final.content.forEach((block, i) => assert.deepEqual(m.content[i], expectedBlock(block), `block ${i} (${block.type})`));
  assert.equal(envelope.provider, 'claude');
  assert.equal(envelope.status, 'complete');
  assert.deepEqual(tracker, {
    inputTokens: final.usage.input_tokens,
    outputTokens: final.usage.output_tokens,
    cacheReadInputTokens: final.usage.cache_read_input_tokens ?? 0,
    cacheCreationInputTokens: final.usage.cache_creation_input_tokens ?? 0,
    contextTokens: final.usage.input_tokens + (final.usage.cache_read_input_tokens ?? 0) + (final.usage.cache_creation_input_tokens ?? 0),
  });
}

/**
 * The anthropic-sdk-python captures end without the blank line that ends an SSE event, so
 * the TypeScript SDK's parser never delivers their message_stop: as captured, the stream
 * ends with its message unfinished. Each is also fed with the blank line the wire carries.
 */
const UNTERMINATED = CAPTURES.filter(([, body]) => !body.endsWith('\n\n'));
CAPTURES.push(...UNTERMINATED.map(([name, body]) => [`${name} + SSE terminator`, body.replace(/\n*$/, '\n\n')]));

for (const [name, body] of UNTERMINATED) {
  test(`MessageStream of ${name} as captured: the message is kept with status error`, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession();
    s.appendUserMessage('Go');
    const stream = client(body).messages.stream(PARAMS);
    let snapshot;
    stream.on('streamEvent', (_event, snap) => { snapshot = snap; });
    stream.finalMessage().catch(() => {});
    await assert.rejects(fromAnthropicStream(s, stream), /the stream ended before message_stop/);
    const id = s.id;
    store.close();

    const { messages, envelopes } = reopened(db, id);
    const e = envelopes.at(-1);
    assert.equal(e.status, 'error');
    assert.equal(e.error, 'the stream ended before message_stop');
    assert.equal(messages[1].id, snapshot.id);
    assert.equal(messages[1].content.length, snapshot.content.length);
    snapshot.content.forEach((block, i) => assert.deepEqual(messages[1].content[i], expectedBlock(block), `block ${i}`));
  });
}

for (const [name, body] of CAPTURES.filter(([, b]) => b.endsWith('\n\n'))) {
  test(`MessageStream of ${name}`, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession({ projectPath: '/work/adapters' });
    s.appendUserMessage('Go');
    const stream = client(body).messages.stream(PARAMS);
    const [returned, final] = await Promise.all([fromAnthropicStream(s, stream), stream.finalMessage()]);
    const id = s.id;
    store.close();

    const { messages, envelopes, tracker } = reopened(db, id);
    assert.equal(messages.length, 2);
    checkAgainstSDK(messages, envelopes.at(-1), tracker, final);
    assert.equal(envelopes.at(-1).requestId, 'req_fixture_01');
    assert.deepEqual(returned, envelopes.at(-1), 'the adapter resolves with the envelope it recorded');
  });

  test(`raw Stream of ${name}, from create() not awaited`, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession();
    s.appendUserMessage('Go');
    const returned = await fromAnthropicStream(s, client(body).messages.create({ ...PARAMS, stream: true }));
    const final = await client(body).messages.stream(PARAMS).finalMessage();
    const id = s.id;
    store.close();

    const { messages, envelopes, tracker } = reopened(db, id);
    checkAgainstSDK(messages, envelopes.at(-1), tracker, final);
    assert.equal(envelopes.at(-1).requestId, 'req_fixture_01', 'the request id comes from the response');
    assert.equal(returned.uuid, envelopes.at(-1).uuid);
  });
}

test('every capture was fed through the SDK', () => {
  assert.equal(CAPTURES.length, 7);
  assert.equal(UNTERMINATED.length, 2);
  assert.ok(CAPTURES.every(([, body]) => body.startsWith('event: message_start')));
});

// No capture has server tools or citations; this stream is written here in the shape the
// Messages API documents for web search, and parsed by the SDK like the captures.
const WEB_SEARCH_EVENTS = [
  { type: 'message_start', message: { id: 'msg_web', type: 'message', role: 'assistant', model: 'claude-fixture', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 2000, output_tokens: 3, cache_read_input_tokens: 500, cache_creation_input_tokens: 0 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me search.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query": "weather ' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'Paris"}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', title: 'Paris weather', url: 'https://weather.example/paris', encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5', page_age: 'April 30, 2025' }] } },
  { type: 'content_block_stop', index: 2 },
  { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'It is raining' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', cited_text: 'Rain all day in Paris', url: 'https://weather.example/paris', title: 'Paris weather', encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0' } } },
  { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: ' in Paris.' } },
  { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', cited_text: 'Rain — 12 °C', url: 'https://weather.example/paris', title: 'Paris weather', encrypted_index: 'Eo8BCioIAhgBIiQzYzU1' } } },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_start', index: 4, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: ' Take an umbrella.' } },
  { type: 'content_block_stop', index: 4 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 120, server_tool_use: { web_search_requests: 1 } } },
  { type: 'message_stop' },
];
const WEB_SEARCH_SSE = WEB_SEARCH_EVENTS.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');

test('server tool blocks and citations are kept block for block', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Weather in Paris?');
  const stream = client(WEB_SEARCH_SSE).messages.stream(PARAMS);
  const [, final] = await Promise.all([fromAnthropicStream(s, stream), stream.finalMessage()]);
  const id = s.id;
  store.close();

  const { messages, envelopes, tracker } = reopened(db, id);
  checkAgainstSDK(messages, envelopes.at(-1), tracker, final);
  const content = messages[1].content;
  assert.deepEqual(content.map((b) => b.type), ['text', 'server_tool_use', 'web_search_tool_result', 'text', 'text'],
    'consecutive text blocks stay apart');
  assert.equal(content[3].citations.length, 2);
  assert.deepEqual(content[1].input, { query: 'weather Paris' });
  assert.equal(tracker.contextTokens, 2500);
});

test('a server_tool_use is not a tool call the agent answers', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Weather in Paris?');
  await fromAnthropicStream(s, client(WEB_SEARCH_SSE).messages.create({ ...PARAMS, stream: true }));
  assert.throws(() => s.ingest({ type: 'tool_result', toolUseId: 'srvtoolu_01', content: 'x' }), (e) => e.code === 'UNKNOWN_TOOL_USE');
});
