// What `require('sessionkeep')` and `openStore` load, and what waits for its first use (issue 16:
// resident memory of an app that only opens a store): the SDK adapters, the slash commands,
// context building, the resume prompt and summary, a session's streaming and reading modules,
// and node:worker_threads are not loaded by opening a store; each lazy export is its module's
// own function once read, by require() and by import().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** LAZY names each export that loads on first use, with the module (under dist/) that holds it. */
const LAZY = {
  validateContext: 'context.js',
  registerStrategy: 'strategies.js',
  relativeTime: 'relative-time.js',
  parseResumeArgs: 'resume.js',
  resolveSession: 'resume.js',
  promptResume: 'resume.js',
  fromAnthropicStream: 'adapters/anthropic.js',
  fromOpenAIStream: 'adapters/openai.js',
  fromAISDKStream: 'adapters/ai-sdk.js',
  aiSDKChatStore: 'adapters/ai-sdk-chat.js',
  fromClaudeAgentSDK: 'adapters/claude-agent-sdk.js',
  runSessionCommand: 'commands/index.js',
  sessionCommands: 'commands/index.js',
  completeSessionCommand: 'commands/index.js',
};

/**
 * inFreshNode runs `script` in a new Node with `openStore` and a temporary store path `db`
 * in scope; the script returns a value that is printed as JSON and returned here. `loaded()`
 * lists the package's modules loaded so far, relative to dist/.
 */
function inFreshNode(t, script) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-135-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const prelude = `
    const path = require('node:path');
    const dist = ${JSON.stringify(DIST)};
    const loaded = () => Object.keys(require.cache).filter((f) => f.startsWith(dist + path.sep) && f.endsWith('.js'))
      .map((f) => path.relative(dist, f).split(path.sep).join('/')).sort();
    const pkg = require(path.join(dist, 'index.js'));
    const db = ${JSON.stringify(path.join(dir, 's.db'))};`;
  const r = spawnSync(process.execPath, ['-e', `${prelude}\nconsole.log(JSON.stringify((() => { ${script} })()))`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

test('opening a store and creating a session load none of what waits for first use, nor node:worker_threads', (t) => {
  const r = inFreshNode(t, `
    const store = pkg.openStore(db);
    store.createSession();
    const result = { loaded: loaded(), workerThreads: process.moduleLoadList.includes('NativeModule worker_threads') };
    store.close();
    return result;`);
  const lazy = new Set([...Object.values(LAZY), 'ingest.js', 'pending.js', 'parts.js', 'resume-summary.js']);
  assert.deepEqual(r.loaded.filter((m) => lazy.has(m) || m.startsWith('adapters/') || m.startsWith('commands/') || m.startsWith('cli/')), []);
  assert.ok(r.loaded.includes('store.js') && r.loaded.includes('session.js'), `loaded: ${r.loaded}`);
  assert.equal(r.workerThreads, false);
});

test("a session's first chunk, read, resume summary and context build load their modules and work", (t) => {
  const r = inFreshNode(t, `
    const store = pkg.openStore(db);
    const s = store.createSession();
    const steps = {};
    s.appendUserMessage('hi');
    s.ingest({ type: 'message_start', id: 'msg_1', model: 'm' });
    s.ingest({ type: 'text', text: 'hello' });
    s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 3, output_tokens: 2 } });
    steps.ingest = loaded().includes('ingest.js') && !loaded().includes('parts.js');
    const messages = s.messages();
    steps.parts = loaded().includes('parts.js') && !loaded().includes('context.js');
    const summary = s.resumeSummary();
    steps.summary = loaded().includes('resume-summary.js');
    const context = s.buildContext({ contextWindow: 200_000 });
    steps.context = loaded().includes('context.js');
    store.close();
    return { steps, messages, summaryId: summary.id, id: s.id, contextMessages: context.messages.length };`);
  assert.deepEqual(r.steps, { ingest: true, parts: true, summary: true, context: true });
  assert.deepEqual(r.messages[1].content, [{ type: 'text', text: 'hello' }]);
  assert.equal(r.summaryId, r.id);
  assert.equal(r.contextMessages, 2);
});

test('each lazy export is its own module\'s function, through require() and import()', async () => {
  const cjs = require(path.join(DIST, 'index.js'));
  const esm = await import(path.join(DIST, 'index.js'));
  for (const [name, file] of Object.entries(LAZY)) {
    const own = require(path.join(DIST, file))[name];
    assert.equal(typeof own, 'function', `${file} exports ${name}`);
    assert.equal(cjs[name], own, `require('sessionkeep').${name}`);
    assert.equal(esm[name], own, `import { ${name} } from 'sessionkeep'`);
  }
});
