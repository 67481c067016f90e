// The Claude Agent SDK's query() with a SessionkeepSessionStore, offline: the SDK's own
// Claude Code binary runs against a local server that answers the Messages API as a model
// would (ANTHROPIC_BASE_URL), so a turn is mirrored into the store, and a second query()
// resumes from the store alone (the local transcript removed) and sends the model the
// first turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { HELPERS, tempDir, tempStore } from './helpers/common.mjs';
import { claudeCodeBinary } from './helpers/claude-code-binary.mjs';

const ROOT = path.join(HELPERS, '..', '..');
const { SessionkeepSessionStore } = await import(path.join(ROOT, 'dist', 'claude-agent-sdk.js'));
const { query } = await import('@anthropic-ai/claude-agent-sdk');

const texts = (content) => (typeof content === 'string' ? [content] : content.filter((b) => b.type === 'text').map((b) => b.text));

/** fakeModel serves the Messages API: each reply names the prompt it answers. */
async function fakeModel(t) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (!req.url.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      const request = JSON.parse(body);
      requests.push(request);
      // The prompts of this test are questions; Claude Code adds text of its own to the request.
      const prompt = request.messages.filter((m) => m.role === 'user').flatMap((m) => texts(m.content)).filter((x) => x.endsWith('?')).at(-1);
      const text = `Reply to: ${prompt}`;
      const message = { id: `msg_fake_${requests.length}`, type: 'message', role: 'assistant', model: request.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } };
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...message, content: [{ type: 'text', text }], stop_reason: 'end_turn' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', { message });
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
      event('content_block_stop', { index: 0 });
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
      event('message_stop', {});
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { requests, url: `http://127.0.0.1:${server.address().port}` };
}

test('query() mirrors a turn into the store, and a query() resumed from the store alone sends the model that turn', async (t) => {
  const model = await fakeModel(t);
  const dir = tempDir(t, 'sessionkeep-claude-query-');
  const cwd = path.join(dir, 'work');
  const configDir = path.join(dir, 'config');
  fs.mkdirSync(cwd);
  const env = {
    ...process.env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-offline-test', CLAUDE_CONFIG_DIR: configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1',
  };
  const { store } = tempStore(t);
  const sessionStore = new SessionkeepSessionStore(store);
  // npm ci leaves out the SDK's platform binary: fetched into build/ on first use.
  const pathToClaudeCodeExecutable = claudeCodeBinary();
  const options = { cwd, env, sessionStore, maxTurns: 1, tools: [], settingSources: [], pathToClaudeCodeExecutable };

  let sessionId;
  for await (const m of query({ prompt: 'What is the first answer?', options })) {
    if (m.type === 'result') {
      assert.equal(m.subtype, 'success');
      sessionId = m.session_id;
    }
  }
  assert.ok(sessionId, 'the first query ran to its result');
  const projectKey = (await Promise.all(
    fs.readdirSync(path.join(configDir, 'projects')).map(async (p) => ((await sessionStore.listSessions(p)).length > 0 ? p : null)),
  )).find(Boolean);
  assert.ok(projectKey, 'the SDK mirrored the session into the store under its project key');
  const key = { projectKey, sessionId };
  assert.deepEqual((await sessionStore.listSessions(projectKey)).map((s) => s.sessionId), [sessionId]);

  fs.rmSync(configDir, { recursive: true, force: true }); // the local transcript is gone: only the store has it
  let resumedReply;
  for await (const m of query({ prompt: 'And the second?', options: { ...options, resume: sessionId } })) {
    if (m.type === 'result') resumedReply = m.result;
  }
  assert.equal(resumedReply, 'Reply to: And the second?');
  const sent = model.requests.filter((r) => r.stream).at(-1).messages.flatMap((m) => texts(m.content));
  assert.ok(sent.includes('What is the first answer?') && sent.includes('Reply to: What is the first answer?'), `the resumed request held the first turn: ${JSON.stringify(sent)}`);

  const lines = await sessionStore.load(key);
  const said = lines.filter((e) => e.type === 'user' || e.type === 'assistant').flatMap((e) => texts(e.message.content));
  assert.deepEqual(said, ['What is the first answer?', 'Reply to: What is the first answer?', 'And the second?', 'Reply to: And the second?']);
  const session = store.openSession(sessionStore.sessionId(key));
  t.after(() => session.close());
  assert.equal(session.sdkSessionId, sessionId);
  assert.deepEqual(session.messages().map((m) => [m.role, texts(m.content).join('')]), [
    ['user', 'What is the first answer?'], ['assistant', 'Reply to: What is the first answer?'],
    ['user', 'And the second?'], ['assistant', 'Reply to: And the second?'],
  ]);
});
