// Stream adapters when things go wrong: a connection that drops mid-stream, a user abort,
// a session closed under a stream, a process killed mid-stream, and wrong arguments. What
// arrived is kept and the message says how it ended; nothing is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { streamText } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { openStore, sk, tempDir, tempStore, helper, killAfterFirstLine, sessionError } from './helpers/common.mjs';
import { SSE_DIR, cassetteBody, failingFetch, fixtures, readFixture, sseResponse } from './helpers/sse.mjs';

const { fromAnthropicStream, fromOpenAIStream, fromAISDKStream } = sk;

const THINKING = cassetteBody(readFixture(fixtures('pydantic__').find((f) => f.endsWith('thinking_part_stream.yaml'))));
const TOOL_USE_FILE = fixtures('anthropics__').find((f) => f.includes('tool_use_response'));
const PARAMS = { model: 'claude-fixture', max_tokens: 1024, messages: [{ role: 'user', content: 'Go' }] };
/** Where the thinking capture is cut: after the signature and a few words of the answer. */
const CUT = THINKING.indexOf(' steps for') + 200;

function lastStored(db, id) {
  const store = openStore(db);
  try {
    return store.openSession(id).envelopes().at(-1);
  } finally {
    store.close();
  }
}

test('Anthropic: a connection dropped mid-stream rejects and leaves the message marked error, its blocks kept', async (t) => {
  for (const via of ['stream', 'create']) {
    const { db, store } = tempStore(t, `${via}.db`);
    const s = store.createSession();
    s.appendUserMessage('How do I cross the street?');
    const client = new Anthropic({ apiKey: 'test-key', fetch: failingFetch(THINKING, CUT), maxRetries: 0 });
    const stream = via === 'stream' ? client.messages.stream(PARAMS) : client.messages.create({ ...PARAMS, stream: true });
    if (via === 'stream') stream.on('error', () => {});
    const err = await fromAnthropicStream(s, stream).then(() => null, (e) => e);
    assert.ok(err instanceof Error, `${via}: the adapter rejects`);
    assert.match(err.message, /terminated|other side closed/);
    const id = s.id;
    store.close();

    const e = lastStored(db, id);
    assert.equal(e.status, 'error', via);
    assert.equal(e.error, err.message);
    const [thinking, text] = e.message.content;
    assert.equal(thinking.type, 'thinking');
    assert.match(thinking.signature, /^EvMCCkYICxgCKk/, 'the signed thinking block is whole');
    assert.match(text.text, /^Here are the basic steps for/, 'the text streamed so far is kept');
    assert.equal(e.message.id, 'msg_01ALwQ87pTS7hH1PjSdC9wJD');
  }
});

test('Anthropic: a user abort mid-stream is recorded as the end of the message', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('How do I cross the street?');
  const fetch = async (url, init) => sseResponse(THINKING, { piece: 64, signal: init.signal });
  const stream = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 }).messages.stream(PARAMS);
  stream.on('text', () => stream.abort());
  stream.on('abort', () => {});
  await assert.rejects(fromAnthropicStream(s, stream), (e) => e.name === 'APIUserAbortError');
  const e = s.envelopes().at(-1);
  assert.equal(e.status, 'error');
  assert.match(e.error, /abort/i);
  assert.equal(e.message.content[0].type, 'thinking');
});

test('a session closed under a stream rejects with STORE_CLOSED and cancels the request', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Go');
  let signal;
  const fetch = async (url, init) => {
    signal = init.signal;
    return sseResponse(readFixture(TOOL_USE_FILE) + '\n\n', { signal });
  };
  const stream = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 }).messages.create({ ...PARAMS, stream: true });
  // The session is closed right after the adapter recorded the third event (the first text delta; the SDK skips pings).
  async function* closingAfter(events, n) {
    let i = 0;
    for await (const event of events) {
      yield event;
      if (++i === n) s.close();
    }
  }
  await assert.rejects(fromAnthropicStream(s, closingAfter(await stream, 3)), sessionError('STORE_CLOSED'));
  assert.equal(signal.aborted, true, 'the SDK request was aborted');
  const e = store.openSession(s.id).envelopes().at(-1);
  assert.equal(e.status, 'interrupted', 'closing the session ended the message as interrupted');
  assert.deepEqual(e.message.content, [{ type: 'text', text: 'I' }]);
});

test('OpenAI: a dropped Chat Completions stream leaves the tool call kept as raw input, marked error', async (t) => {
  const [file] = fixtures('openai__');
  const body = readFixture(file);
  const cut = body.indexOf('"arguments":"Ed"');
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Weather?');
  const openai = new OpenAI({ apiKey: 'test-key', fetch: failingFetch(body, cut + 200), maxRetries: 0 });
  await assert.rejects(fromOpenAIStream(s, openai.chat.completions.create({ model: 'gpt-4o', messages: [], stream: true })));
  const e = s.envelopes().at(-1);
  assert.equal(e.status, 'error');
  assert.equal(e.provider, 'openai');
  assert.deepEqual(e.message.content, [{ type: 'tool_use', id: 'call_c91SqDXlYFuETYv8mUHzz6pp', name: 'GetWeatherArgs', input: {}, raw_input: '{"city":"Ed', input_error: 'streamed input is not valid JSON' }]);
});

test('AI SDK: a dropped provider stream comes as an error part; the adapter records it and rejects', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('How do I cross the street?');
  const model = createAnthropic({ apiKey: 'test-key', fetch: failingFetch(THINKING, CUT) })('claude-sonnet-4-5');
  const result = streamText({ model, prompt: 'How do I cross the street?', onError: () => {} });
  const err = await fromAISDKStream(s, result.fullStream).then(() => null, (e) => e);
  assert.ok(err instanceof Error, 'the adapter rejects with the error part\'s error');
  assert.match(String(err.cause), /terminated|other side closed/);
  const e = s.envelopes().at(-1);
  assert.equal(e.status, 'error');
  assert.equal(e.error, err.message);
  assert.equal(e.message.content[0].type, 'thinking');
  assert.match(e.message.content[0].signature, /^EvMCCkYICxgCKk/);
  assert.match(e.message.content[1].text, /^Here are the basic steps for/);
});

test('a process killed mid-stream: the partial message comes back interrupted, nothing lost', async (t) => {
  const db = path.join(tempDir(t), 'crash.db');
  const file = path.join(SSE_DIR, TOOL_USE_FILE);
  const bytes = readFixture(TOOL_USE_FILE).indexOf('"on\\": \\"P"');
  const { id } = await killAfterFirstLine(helper('adapter-crash-child.mjs'), [db, file, String(bytes)]);
  const e = lastStored(db, id);
  assert.equal(e.status, 'interrupted');
  assert.deepEqual(e.message.content, [
    { type: 'text', text: "I'll check the current weather in Paris for you." },
    { type: 'tool_use', id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', caller: { type: 'direct' }, input: {}, raw_input: '{"locati', input_error: 'streamed input is not valid JSON' },
  ]);
});

test('wrong arguments are TypeErrors, and nothing is recorded', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  for (const adapter of [fromAnthropicStream, fromOpenAIStream, fromAISDKStream]) {
    await assert.rejects(adapter({ ingest() {} }, (async function* () {})()), TypeError);
    await assert.rejects(adapter(s, 42), TypeError);
    await assert.rejects(adapter(s, Promise.resolve({ not: 'a stream' })), TypeError);
    assert.equal(await adapter(s, (async function* () {})()), null, 'an empty stream records nothing');
  }
  assert.deepEqual(s.messages(), []);
});
