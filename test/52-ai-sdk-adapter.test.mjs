// fromAISDKStream: the vercel/ai captures are provider stream chunks of the AI SDK's own
// provider packages, so they are fed the way they were recorded: served as SSE to the real
// @ai-sdk/anthropic and @ai-sdk/openai providers through a custom fetch, run by streamText()
// of the real `ai` package (tools executed by the SDK), and the store read back after
// reopening is checked step for step against the steps the SDK itself assembles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamText, tool, stepCountIs } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { z } from 'zod';
import { openStore, sk, tempStore } from './helpers/common.mjs';
import { fixtures, jsonLinesToSSE, readFixture, replayFetch } from './helpers/sse.mjs';

const { fromAISDKStream } = sk;

function reopened(db, id) {
  const store = openStore(db);
  try {
    const s = store.openSession(id);
    return { messages: s.messages(), envelopes: s.envelopes(), tracker: s.tokenTracker() };
  } finally {
    store.close();
  }
}

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', 'tool-calls': 'tool_use', 'content-filter': 'refusal' };

/** A step's content parts as sessionkeep's blocks: see docs/api.md, fromAISDKStream. */
function stepBlocks(content) {
  const withMeta = (block, part) => (part.providerMetadata ? { ...block, providerMetadata: part.providerMetadata } : block);
  return content.filter((p) => p.type !== 'tool-result' || p.providerExecuted).map((p) => {
    switch (p.type) {
      case 'text':
        return withMeta({ type: 'text', text: p.text }, p);
      case 'reasoning': {
        const signature = p.providerMetadata?.anthropic?.signature;
        return withMeta({ type: 'thinking', thinking: p.text, ...(signature && { signature }) }, p);
      }
      case 'tool-call':
        return withMeta({ type: p.providerExecuted ? 'server_tool_use' : 'tool_use', id: p.toolCallId, name: p.toolName, input: p.input }, p);
      default:
        throw new Error(`the captures have no ${p.type} part`);
    }
  });
}

function resultBlocks(content) {
  return content.filter((p) => p.type === 'tool-result' && !p.providerExecuted).map((p) => ({
    type: 'tool_result', tool_use_id: p.toolCallId, content: typeof p.output === 'string' ? p.output : JSON.stringify(p.output), is_error: false,
  }));
}

/** checkSteps compares the stored conversation after the prompt with the SDK's steps. */
function checkSteps(messages, envelopes, tracker, steps) {
  let at = 1;
  const expected = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 0 };
  for (const [i, step] of steps.entries()) {
    const m = messages[at];
    assert.equal(m.role, 'assistant', `step ${i + 1}`);
    assert.deepEqual(m.content, stepBlocks(step.content), `step ${i + 1}`);
    assert.equal(m.id, step.response.id);
    assert.equal(m.model, step.response.modelId);
    assert.equal(m.stop_reason, STOP_REASONS[step.finishReason]);
    assert.deepEqual(m.usage.raw, step.usage.raw);
    assert.equal(envelopes[at].status, 'complete');
    const u = step.usage;
    const read = u.inputTokenDetails.cacheReadTokens ?? 0;
    const write = u.inputTokenDetails.cacheWriteTokens ?? 0;
    expected.inputTokens += u.inputTokens - read - write;
    expected.outputTokens += u.outputTokens;
    expected.cacheReadInputTokens += read;
    expected.cacheCreationInputTokens += write;
    expected.contextTokens = u.inputTokens;
    at++;
    const results = resultBlocks(step.content);
    if (results.length > 0) {
      assert.deepEqual(messages[at].content, results, `tool results of step ${i + 1}`);
      assert.equal(envelopes[at].type, 'tool_result');
      at++;
    }
  }
  assert.equal(messages.length, at, 'nothing more was recorded');
  assert.deepEqual(tracker, expected);
}

test('Anthropic capture through @ai-sdk/anthropic: thinking keeps its signature', async (t) => {
  const [file] = fixtures('vercel__ai__packages__anthropic');
  const { fetch } = replayFetch(jsonLinesToSSE(readFixture(file)));
  const model = createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5');
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Now divide that by 5');
  const result = streamText({ model, prompt: 'Now divide that by 5' });
  const returned = await fromAISDKStream(s, result.fullStream, { provider: 'claude' });
  const steps = await result.steps;
  const id = s.id;
  store.close();

  const { messages, envelopes, tracker } = reopened(db, id);
  checkSteps(messages, envelopes, tracker, steps);
  const [thinking, text] = messages[1].content;
  assert.match(thinking.signature, /^EvQBCkYICxgCKkAx/);
  assert.equal(text.text, '925 ÷ 5 = 185');
  assert.equal(envelopes[1].provider, 'claude');
  assert.deepEqual(returned, envelopes[1]);
});

test('OpenAI Responses capture through @ai-sdk/openai: four steps, tools run by the SDK, encrypted reasoning kept', async (t) => {
  const [file] = fixtures('vercel__ai__packages__openai');
  const { fetch, requests } = replayFetch(jsonLinesToSSE(readFixture(file), { splitOn: 'response.created' }));
  const model = createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5.1-codex-max');
  const calculator = tool({
    inputSchema: z.object({ a: z.number(), b: z.number(), op: z.enum(['add', 'multiply']) }),
    execute: ({ a, b, op }) => (op === 'add' ? a + b : a * b),
  });
  const { db, store } = tempStore(t);
  const s = store.createSession({ provider: 'openai' });
  s.appendUserMessage('Compute ((12 + 7) * 3) * 10 with the calculator.');
  const result = streamText({ model, prompt: 'Compute ((12 + 7) * 3) * 10 with the calculator.', tools: { calculator }, stopWhen: stepCountIs(4) });
  const returned = await fromAISDKStream(s, result.fullStream);
  const steps = await result.steps;
  const id = s.id;
  store.close();

  assert.equal(requests.length, 4);
  assert.equal(steps.length, 4);
  const { messages, envelopes, tracker } = reopened(db, id);
  checkSteps(messages, envelopes, tracker, steps);
  const reasoning = messages[1].content[0];
  assert.equal(reasoning.type, 'thinking');
  assert.match(reasoning.providerMetadata.openai.reasoningEncryptedContent, /^gAAAAA/);
  assert.deepEqual(envelopes[2].toolUseResults, { [messages[1].content[1].id]: { output: 19 } }, 'a tool output that is not a string is kept as it came');
  assert.equal(messages.at(-1).content[0].text, 'The final result is **570**.');
  assert.ok(envelopes.every((e) => e.type !== 'assistant' || e.provider === 'openai'));
  assert.deepEqual(returned, envelopes.at(-1));
});
