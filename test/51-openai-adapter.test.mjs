// fromOpenAIStream: the recorded OpenAI streams, parsed by the real openai SDK (Chat
// Completions chunks and Responses events), recorded into a store and read back after
// reopening it, block for block against what the SDK itself assembles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { openStore, sk, tempStore } from './helpers/common.mjs';
import { fixtures, jsonLinesToSSE, readFixture, replayFetch } from './helpers/sse.mjs';

const { fromOpenAIStream } = sk;

function client(bodies) {
  const replay = replayFetch(bodies, { 'x-request-id': 'req_openai_01' });
  return { openai: new OpenAI({ apiKey: 'test-key', fetch: replay.fetch, maxRetries: 0 }), requests: replay.requests };
}

function reopened(db, id) {
  const store = openStore(db);
  try {
    const s = store.openSession(id);
    return { messages: s.messages(), envelopes: s.envelopes(), tracker: s.tokenTracker() };
  } finally {
    store.close();
  }
}

/** The tracker OpenAI usage gives: cached tokens are inside OpenAI's input count, and apart in ours. */
function trackerOf(input, cached, output) {
  return { inputTokens: input - cached, outputTokens: output, cacheReadInputTokens: cached, cacheCreationInputTokens: 0, contextTokens: input };
}

// ---------------------------------------------------------------------------------------
// Chat Completions

const CHAT = fixtures('openai__').map((f) => [f, readFixture(f)]);
const CHAT_PARAMS = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Edinburgh?' }] };

/** The completion's first choice as sessionkeep's blocks: its text, then a tool_use per call. */
function chatBlocks(message) {
  const blocks = [];
  if (message.content) blocks.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) });
  }
  return blocks;
}

for (const [name, body] of CHAT) {
  test(`ChatCompletionStream of ${name}`, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession();
    s.appendUserMessage('Weather in Edinburgh?');
    const stream = client([body]).openai.chat.completions.stream(CHAT_PARAMS);
    const [returned, final] = await Promise.all([fromOpenAIStream(s, stream), stream.finalChatCompletion()]);
    const id = s.id;
    store.close();

    const { messages, envelopes, tracker } = reopened(db, id);
    const m = messages[1];
    assert.deepEqual(m.content, chatBlocks(final.choices[0].message));
    assert.ok(final.choices[0].message.tool_calls.length >= 1);
    assert.equal(m.id, final.id);
    assert.equal(m.model, final.model);
    assert.equal(final.choices[0].finish_reason, 'tool_calls');
    assert.equal(m.stop_reason, 'tool_use');
    assert.deepEqual(m.usage.raw, final.usage, 'the usage OpenAI reported is kept as it came');
    assert.deepEqual(tracker, trackerOf(final.usage.prompt_tokens, final.usage.prompt_tokens_details?.cached_tokens ?? 0, final.usage.completion_tokens));
    assert.equal(envelopes[1].provider, 'openai');
    assert.equal(envelopes[1].status, 'complete');
    assert.deepEqual(returned, envelopes[1]);
  });

  test(`raw chat Stream of ${name}, from create() not awaited`, async (t) => {
    const { db, store } = tempStore(t);
    const s = store.createSession();
    s.appendUserMessage('Weather in Edinburgh?');
    await fromOpenAIStream(s, client([body]).openai.chat.completions.create({ ...CHAT_PARAMS, stream: true }));
    const final = await client([body]).openai.chat.completions.stream(CHAT_PARAMS).finalChatCompletion();
    const id = s.id;
    store.close();
    const { messages, envelopes } = reopened(db, id);
    assert.deepEqual(messages[1].content, chatBlocks(final.choices[0].message));
    assert.equal(envelopes[1].requestId, 'req_openai_01');
  });
}

test('parallel tool calls are told apart by index, and each can be answered', async (t) => {
  const [name, body] = CHAT.find(([, b]) => b.includes('"index":1'));
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Weather and a stock price');
  const envelope = await fromOpenAIStream(s, client([body]).openai.chat.completions.create({ ...CHAT_PARAMS, stream: true }));
  const calls = envelope.message.content.filter((b) => b.type === 'tool_use');
  assert.deepEqual(calls.map((c) => c.name), ['GetWeatherArgs', 'get_stock_price'], name);
  for (const call of calls) s.ingest({ type: 'tool_result', toolUseId: call.id, content: `result of ${call.name}` });
  assert.deepEqual(s.messages()[2].content.map((b) => b.tool_use_id), calls.map((c) => c.id));
});

test('chat chunks with text, interleaved tool calls refused, nothing lost', async (t) => {
  // Written here: a reply with text and a tool call whose arguments come after the next
  // call began, which the SDK's own stream helper also does not expect.
  const chunk = (delta, extra = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
  const body = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Checking ' }),
    chunk({ content: 'both.' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x":' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '{}' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
    'data: [DONE]\n\n',
  ].join('');
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('go');
  await assert.rejects(fromOpenAIStream(s, client([body]).openai.chat.completions.create({ ...CHAT_PARAMS, stream: true })),
    /tool call 0 got more arguments after tool call 1 began/);
  const [, m] = s.envelopes();
  assert.equal(m.status, 'error');
  assert.deepEqual(m.message.content.slice(0, 2), [
    { type: 'text', text: 'Checking both.' },
    { type: 'tool_use', id: 'call_a', name: 'a', input: {}, raw_input: '{"x":', input_error: 'streamed input is not valid JSON' },
  ]);
});

// ---------------------------------------------------------------------------------------
// Responses API: the vercel/ai capture of a four-step calculator run. Each of its four
// responses is served as SSE, and an agent loop answers each function call from the
// envelope the adapter returns.

const [RESPONSES_FILE] = fixtures('vercel__ai__packages__openai');
const RESPONSES = jsonLinesToSSE(readFixture(RESPONSES_FILE), { splitOn: 'response.created' });
const RESPONSES_PARAMS = { model: 'gpt-5.1-codex-max', input: 'Compute ((12 + 7) * 3) * 10 with the calculator.' };

/**
 * The items as their response.output_item.done events give them. response.completed repeats
 * each item, and in this capture with a different encrypted_content (encrypted anew); the
 * adapter records an item when it is done, before the items after it stream.
 */
const DONE_ITEMS = new Map(readFixture(RESPONSES_FILE).split('\n').filter(Boolean).map((l) => JSON.parse(l))
  .filter((e) => e.type === 'response.output_item.done').map((e) => [e.item.id, e.item]));

/** The response's output as sessionkeep's blocks: see docs/api.md, fromOpenAIStream. */
function responseBlocks(output) {
  const blocks = [];
  for (const item of output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        const openai = { item_id: item.id };
        if (part.annotations?.length) openai.annotations = part.annotations;
        blocks.push({ type: 'text', text: part.text, openai });
      }
    } else if (item.type === 'function_call') {
      blocks.push({ type: 'tool_use', id: item.call_id, name: item.name, input: JSON.parse(item.arguments), openai: { item_id: item.id } });
    } else {
      const done = DONE_ITEMS.get(item.id);
      assert.deepEqual({ ...done, encrypted_content: undefined }, { ...JSON.parse(JSON.stringify(item)), encrypted_content: undefined });
      blocks.push(done);
    }
  }
  return blocks;
}

const calculate = ({ a, b, op }) => ({ add: a + b, multiply: a * b })[op];

test(`Responses events of ${RESPONSES_FILE}: four responses, reasoning with encrypted content kept to send back`, async (t) => {
  assert.equal(RESPONSES.length, 4);
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage(RESPONSES_PARAMS.input);
  const finals = [];
  for (const [i, body] of RESPONSES.entries()) {
    // ResponseStream for the odd steps, the raw Stream of create() for the even ones.
    const { openai } = client([body]);
    const stream = i % 2 === 0 ? openai.responses.stream(RESPONSES_PARAMS) : openai.responses.create({ ...RESPONSES_PARAMS, stream: true });
    const envelope = await fromOpenAIStream(s, stream);
    finals.push(await (i % 2 === 0 ? stream : client([body]).openai.responses.stream(RESPONSES_PARAMS)).finalResponse());
    for (const call of envelope.message.content.filter((b) => b.type === 'tool_use')) {
      s.ingest({ type: 'tool_result', toolUseId: call.id, content: String(calculate(call.input)) });
    }
  }
  const id = s.id;
  store.close();

  const { messages, envelopes, tracker } = reopened(db, id);
  const assistants = messages.filter((m) => m.role === 'assistant');
  assert.equal(assistants.length, 4);
  const expected = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 0 };
  finals.forEach((final, i) => {
    const m = assistants[i];
    assert.deepEqual(m.content, responseBlocks(final.output), `response ${i + 1}`);
    assert.equal(m.id, final.id);
    assert.equal(m.model, final.model);
    assert.equal(m.stop_reason, final.output.some((o) => o.type === 'function_call') ? 'tool_use' : 'end_turn');
    assert.deepEqual(m.usage.raw, final.usage);
    const cached = final.usage.input_tokens_details?.cached_tokens ?? 0;
    expected.inputTokens += final.usage.input_tokens - cached;
    expected.outputTokens += final.usage.output_tokens;
    expected.cacheReadInputTokens += cached;
    expected.contextTokens = final.usage.input_tokens;
  });
  assert.deepEqual(tracker, expected);

  const reasoning = assistants[0].content[0];
  assert.equal(reasoning.type, 'reasoning');
  assert.match(reasoning.encrypted_content, /^gAAAAA/);
  assert.ok(reasoning.summary[0].text.startsWith('**Calculating'));
  assert.deepEqual(messages.filter((m) => m.role === 'user').slice(1).map((m) => m.content[0].content), ['19', '57', '570']);
  assert.equal(assistants[3].content[0].text, 'The final result is **570**.');
  assert.ok(envelopes.every((e) => e.status === 'complete'));
  // The request id is known when the adapter gets the SDK's API promise (create() not
  // awaited); the SDK's ResponseStream does not keep the response.
  assert.deepEqual(envelopes.filter((e) => e.type === 'assistant').map((e) => [e.provider, e.requestId]),
    [['openai', undefined], ['openai', 'req_openai_01'], ['openai', undefined], ['openai', 'req_openai_01']]);
});
