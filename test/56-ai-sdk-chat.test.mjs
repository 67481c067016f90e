// aiSDKChatStore: the AI SDK's chatbot persistence guide, on a sessionkeep store. The chats
// are made by the real `ai` package: streamText() runs recorded provider streams (the
// vercel/ai captures served to @ai-sdk/openai and @ai-sdk/anthropic through a custom fetch)
// and toUIMessageStreamResponse({ originalMessages, onFinish }) hands its UIMessages to
// saveChat, as the guide's route handler does; another process loads them back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamText, tool, stepCountIs, validateUIMessages, convertToModelMessages } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { z } from 'zod';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELPERS, SessionError, helper, runNode, sk, tempStore } from './helpers/common.mjs';
import { fixtures, jsonLinesToSSE, readFixture, replayFetch } from './helpers/sse.mjs';

const { aiSDKChatStore } = sk;
const calculator = tool({
  inputSchema: z.object({ a: z.number(), b: z.number(), op: z.enum(['add', 'multiply']) }),
  execute: ({ a, b, op }) => (op === 'add' ? a + b : a * b),
});

async function loadInChild(db, chatId) {
  const r = await runNode(helper('ai-chat-child.mjs'), [db, chatId]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

let turns = 0;

/** chatTurn is the guide's route handler: stream the reply, save the whole chat when it finishes. */
async function chatTurn({ saveChat }, chatId, messages, model, options = {}) {
  let saved;
  const result = streamText({ model, messages: await convertToModelMessages(messages), ...options });
  let n = 0;
  const turn = ++turns;
  const response = result.toUIMessageStreamResponse({
    originalMessages: messages,
    generateMessageId: () => `turn${turn}-${n++}`,
    messageMetadata: ({ part }) => (part.type === 'finish' ? { finishReason: part.finishReason, totalTokens: part.totalUsage.totalTokens } : undefined),
    onFinish: ({ messages: all }) => { saved = saveChat({ chatId, messages: all }).then(() => all); },
  });
  await response.text();
  return saved;
}

const userMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }], metadata: { createdAt: 1764072000000 } });

test('a chat with tool parts and reasoning round-trips exactly through a new process', async (t) => {
  const [file] = fixtures('vercel__ai__packages__openai');
  const { fetch } = replayFetch(jsonLinesToSSE(readFixture(file), { splitOn: 'response.created' }));
  const model = createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5.1-codex-max');
  const { db, store } = tempStore(t);
  const chats = aiSDKChatStore(store);
  const chatId = await chats.createChat({ title: 'calculator' });

  const messages = await chatTurn(chats, chatId, [userMessage('u1', 'Compute ((12 + 7) * 3) * 10 with the calculator.')], model,
    { tools: { calculator }, stopWhen: stepCountIs(4) });
  const [, assistant] = messages;
  assert.ok(assistant.parts.some((p) => p.type === 'reasoning'), 'the capture has reasoning');
  assert.equal(assistant.parts.filter((p) => p.type === 'tool-calculator' && p.state === 'output-available').length, 3);

  // sessionkeep's own view: one assistant message per step, the tool results after each.
  const session = store.openSession(chatId);
  assert.deepEqual(session.messages().map((m) => m.role), ['user', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  const [, , step1, results1] = session.messages();
  assert.deepEqual(step1.content.map((b) => b.type), ['thinking', 'tool_use']);
  assert.equal(results1.content[0].tool_use_id, step1.content[1].id);
  assert.equal(results1.content[0].content, '19');
  store.close();

  const loaded = await loadInChild(db, chatId);
  assert.deepEqual(loaded, JSON.parse(JSON.stringify(messages)));
  assert.deepEqual(await validateUIMessages({ messages: loaded, tools: { calculator } }), loaded);
});

test('saving again appends; a regenerated or edited message rewinds and keeps the old one in the tree', async (t) => {
  const [file] = fixtures('vercel__ai__packages__anthropic');
  const [reply] = jsonLinesToSSE(readFixture(file));
  const model = createAnthropic({ apiKey: 'test-key', fetch: replayFetch([reply, reply, reply]).fetch })('claude-sonnet-4-5');
  const { db, store } = tempStore(t);
  const chats = aiSDKChatStore(store);
  const chatId = await chats.createChat();
  const session = store.openSession(chatId);
  const nodes = () => session.tree().nodes.length;

  const first = await chatTurn(chats, chatId, [userMessage('u1', 'Now divide that by 5')], model);
  const thinking = session.messages()[2].content[0];
  assert.equal(thinking.type, 'thinking');
  assert.match(thinking.signature, /^EvQBCkYICxgCKkAx/, 'the reasoning part\'s Anthropic signature');
  const afterFirst = nodes();

  const second = await chatTurn(chats, chatId, [...first, userMessage('u2', 'And again?')], model);
  assert.equal(nodes(), afterFirst + 2, 'only the new user message and reply were recorded');
  assert.deepEqual(await chats.loadChat(chatId), JSON.parse(JSON.stringify(second)));

  // Regenerate the last reply: the same list up to it, a new reply.
  const regenerated = await chatTurn(chats, chatId, second.slice(0, 3), model);
  assert.notEqual(regenerated[3].id, second[3].id);
  assert.deepEqual(await chats.loadChat(chatId), JSON.parse(JSON.stringify(regenerated)));
  assert.equal(nodes(), afterFirst + 3, 'the first reply to u2 is still in the tree');

  // Edit the first message: everything is recorded again after the chat's start.
  const edited = [{ ...userMessage('u1', 'Divide 925 by 5'), metadata: { edited: true } }];
  await chats.saveChat({ chatId, messages: edited });
  assert.deepEqual(await chats.loadChat(chatId), edited);
  assert.deepEqual(session.messages().map((m) => m.content[0].type), ['history_start', 'text']);

  // Saving what is stored records nothing.
  const before = nodes();
  await chats.saveChat({ chatId, messages: edited });
  assert.equal(nodes(), before);
  store.close();
  assert.deepEqual(await loadInChild(db, chatId), edited);
});

test('parts without a block of their own are kept on the message: files, sources, data, approvals', async (t) => {
  const { db, store } = tempStore(t);
  const chats = aiSDKChatStore(store);
  const chatId = await chats.createChat();
  const messages = [
    { id: 'u1', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'a.png' }, { type: 'text', text: 'What is this?' }] },
    { id: 'a1', role: 'assistant', metadata: { model: 'x' }, parts: [
      { type: 'step-start' },
      { type: 'source-url', sourceId: 's1', url: 'https://example.com', title: 'Example' },
      { type: 'data-weather', id: 'd1', data: { city: 'Berlin', temp: [1, 2] } },
      { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'c1', state: 'output-error', input: { q: 'x' }, errorText: 'no network' },
      { type: 'tool-weather', toolCallId: 'c2', state: 'approval-requested', input: { city: 'Berlin' }, approval: { id: 'ap1' } },
    ] },
    { id: 's1', role: 'system', parts: [{ type: 'data-note', data: {} }] },
  ];
  await chats.saveChat({ chatId, messages });
  const blocks = store.openSession(chatId).messages().map((m) => m.content.map((b) => b.type));
  assert.deepEqual(blocks, [['history_start'], ['image', 'text'], ['tool_use', 'tool_use'], ['tool_result'], ['ui_message']]);
  store.close();
  assert.deepEqual(await loadInChild(db, chatId), messages);
});

test("the store takes the ai package's UIMessage type: tsc checks it, and the compiled code round-trips", async (t) => {
  const root = path.join(HELPERS, '..', '..');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-typed-'));
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), [
    '--strict', '--target', 'es2022', '--module', 'commonjs', '--moduleResolution', 'node10', '--skipLibCheck',
    '--outDir', out, path.join(root, 'test', 'typed', 'ai-sdk-chat-types.ts'),
  ], { stdio: 'inherit' });
  const { roundTrip } = createRequire(import.meta.url)(path.join(out, 'ai-sdk-chat-types.js'));
  const { store } = tempStore(t);
  const messages = [userMessage('u1', 'Hi'), { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello', state: 'done' }], metadata: { createdAt: 1 } }];
  assert.deepEqual(await roundTrip(aiSDKChatStore, store, messages), messages);
});

test('saves of one chat run in call order, each with the messages as they were when called', async (t) => {
  const { store } = tempStore(t);
  const chats = aiSDKChatStore(store);
  const chatId = await chats.createChat();
  const first = [userMessage('u1', 'Hi'), { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] }];
  const regenerated = [first[0], { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'Hi there' }] }];
  const saves = [chats.saveChat({ chatId, messages: first }), chats.saveChat({ chatId, messages: regenerated })];
  first.push(userMessage('u9', 'changed after the call'));
  await Promise.all(saves);
  assert.deepEqual(await chats.loadChat(chatId), regenerated);
  assert.equal(store.openSession(chatId).tree().nodes.length, 4, 'history_start, u1, a1 (off the branch), a2');
});

test('bad arguments: a clear error, nothing stored changes', async (t) => {
  const { store } = tempStore(t);
  assert.throws(() => aiSDKChatStore({}), TypeError);
  const chats = aiSDKChatStore(store);
  const chatId = await chats.createChat();
  await chats.saveChat({ chatId, messages: [userMessage('u1', 'hi')] });
  await assert.rejects(chats.saveChat({ chatId: 5, messages: [] }), TypeError);
  await assert.rejects(chats.saveChat({ chatId, messages: [{ id: 'x', role: 'user' }] }), TypeError);
  await assert.rejects(chats.saveChat({ chatId, messages: 'hi' }), TypeError);
  await assert.rejects(chats.loadChat('01a212b6-d929-7ad0-b8d7-287d3066f940'), (err) => err instanceof SessionError && err.code === 'SESSION_NOT_FOUND');
  assert.deepEqual(await chats.loadChat(chatId), [userMessage('u1', 'hi')]);
});
