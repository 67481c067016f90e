// The in-session commands (issue 13, seed 004's Phase 4) through runSessionCommand on a real
// store: each command's text and data, the action it hands the app, and the errors for lines
// that cannot run. Nothing here is mocked; the summarizer is the caller's function, as an
// agent passes its model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sk, tempDir, tempStore } from './helpers/common.mjs';
import { conversation, recordingSummarizer, sessionWith } from './helpers/context.mjs';

const { runSessionCommand, sessionCommands, completeSessionCommand } = sk;

/** chat records `prompts` turns of prompt and answer, with usage on each answer. */
function chat(store, projectPath, prompts, model = 'claude-sonnet-4-5') {
  const s = store.createSession({ projectPath, provider: 'anthropic', model, contextWindow: 200_000 });
  prompts.forEach((p, i) => {
    s.appendUserMessage(p);
    s.ingest({ type: 'message_start', id: `msg_${i}`, model });
    s.ingest({ type: 'text', text: `Answer ${i + 1}.` });
    s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 500, cache_creation_input_tokens: 0 } });
  });
  return s;
}

/** run runs a line that must succeed, and returns its result. */
async function run(line, options) {
  const r = await runSessionCommand(line, options);
  assert.equal(r.handled, true, `${line} is a command`);
  assert.equal(r.error, undefined, `${line} failed: ${r.error?.message}`);
  assert.equal(typeof r.output.text, 'string');
  return r;
}

/** fails runs a line that must be refused with `code`, and returns the error. */
async function fails(line, options, code) {
  const r = await runSessionCommand(line, options);
  assert.equal(r.handled, true);
  assert.equal(r.error?.code, code, `${line}: ${JSON.stringify(r.error)}`);
  assert.equal(r.output.text, r.error.message);
  assert.equal(r.action, undefined);
  return r.error;
}

test('a line that is not a command is not handled: prose, a path, an empty line', async (t) => {
  const { store } = tempStore(t);
  for (const line of ['fix the failing test', '/etc/hosts has a typo', '', '   ', 'use /help later']) {
    assert.deepEqual(await runSessionCommand(line, { store, session: null }), { handled: false });
  }
});

test('/help lists every command; an unknown one and a half one are refused with the list', async (t) => {
  const { store } = tempStore(t);
  const r = await run('/help', { store, session: null });
  const names = sessionCommands().map((c) => c.name);
  for (const name of ['/sessions', '/sessions all', '/session info', '/session export', '/session archive', '/compact', '/compact --apply',
    '/debug context', '/help', '/resume', '/new', '/rename', '/rewind', '/fork', '/files', '/restore', '/cost']) {
    assert.ok(names.includes(name), name);
    assert.match(r.output.text, new RegExp(`^  ${name.replace(/[/-]/g, '\\$&')}\\b`, 'm'));
  }
  assert.deepEqual(r.output.data.map((c) => c.name), names);

  const unknown = await fails('/frobnicate now', { store, session: null }, 'UNKNOWN_COMMAND');
  assert.match(unknown.message, /Unknown command \/frobnicate\. Commands: \/help \/sessions \/resume/);
  const half = await fails('/session', { store, session: null }, 'INVALID_COMMAND');
  assert.equal(half.message, '/session needs one of: info, export [file], archive.');
  await fails('/SESSION bogus', { store, session: null }, 'INVALID_COMMAND');
  // Names are matched without regard to case.
  assert.equal((await run('/HELP', { store, session: null })).command, '/help');
});

test('completeSessionCommand offers the commands that fit what is typed', () => {
  assert.equal(completeSessionCommand('/').length, sessionCommands().length);
  assert.deepEqual(completeSessionCommand('/se').map((c) => c.name), ['/sessions', '/sessions all', '/session info', '/session export', '/session archive']);
  assert.deepEqual(completeSessionCommand('/session e').map((c) => c.name), ['/session export']);
  assert.deepEqual(completeSessionCommand('/rename Fix the').map((c) => c.name), ['/rename']);
  assert.deepEqual(completeSessionCommand('/compact').map((c) => c.name), ['/compact', '/compact --apply']);
  assert.deepEqual(completeSessionCommand('hello'), []);
  assert.deepEqual(completeSessionCommand('/etc/hosts'), []);
});

test('a program\'s mistakes throw TypeError: no store, a session that is not one, a line that is not a string', async (t) => {
  const { store } = tempStore(t);
  await assert.rejects(runSessionCommand('/help', {}), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(runSessionCommand('/help', { store, session: { id: 'x' } }), { name: 'TypeError' });
  await assert.rejects(runSessionCommand(42, { store, session: null }), { name: 'TypeError' });
});

test('/sessions lists this project\'s sessions with the current one marked; /sessions all every project\'s', async (t) => {
  const { store, dir } = tempStore(t);
  const shop = path.join(dir, 'shop');
  const blog = path.join(dir, 'blog');
  const a = chat(store, shop, ['add a cart']);
  const b = chat(store, shop, ['fix checkout']);
  const c = chat(store, blog, ['write a post']);
  await store.flush();

  const mine = await run('/sessions', { store, session: a, projectPath: shop });
  assert.deepEqual(mine.output.data.map((s) => s.id), [b.id, a.id]);
  assert.match(mine.output.text, new RegExp(`${a.id}\\* add a cart`));
  assert.match(mine.output.text, new RegExp(`${b.id}  fix checkout`));
  assert.doesNotMatch(mine.output.text, /write a post/);
  assert.doesNotMatch(mine.output.text, /\x1b\[/, 'no colours unless asked');

  const all = await run('/sessions all', { store, session: a, projectPath: shop, width: 160 });
  assert.deepEqual(all.output.data.map((s) => s.id), [c.id, b.id, a.id]);
  assert.match(all.output.text, /PROJECT/);
  assert.match(all.output.text, /write a post/);

  const empty = await run('/sessions', { store, session: null, projectPath: path.join(dir, 'none') });
  assert.deepEqual(empty.output.data, []);
  assert.match(empty.output.text, /No sessions in .*none\. \/sessions all lists/);
  await fails('/sessions some', { store, session: null }, 'INVALID_COMMAND');
  for (const s of [a, b, c]) s.close();
});

test('/session info shows the details and resume summary, priced with prices; /cost the tokens and cost', async (t) => {
  const { store, dir } = tempStore(t);
  const s = chat(store, dir, ['one', 'two']);
  await s.flush();
  const prices = { 'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3 } };

  const info = await run('/session info', { store, session: s, prices });
  assert.equal(info.output.data.id, s.id);
  assert.equal(info.output.data.interactions, 2);
  assert.equal(info.output.data.messageCount, 4);
  // 2 requests: 2,000 in at $3, 200 out at $15, 1,000 cache read at $0.30 per million.
  const dollars = (2000 * 3 + 200 * 15 + 1000 * 0.3) / 1e6;
  assert.ok(Math.abs(info.output.data.cost - dollars) < 1e-12);
  for (const part of ['one', 'interactions', 'Usage by model', 'claude-sonnet-4-5: 2 requests, 2,000 in, 200 out, 1,000 cache read', 'Session Resumed', `Session ID: ${s.id}`]) {
    assert.ok(info.output.text.includes(part), `${part} in:\n${info.output.text}`);
  }

  const cost = await run('/cost', { store, session: s, prices });
  assert.equal(cost.output.data.totalTokens, 3200);
  assert.deepEqual(cost.output.data.tokens, { inputTokens: 2000, outputTokens: 200, cacheReadInputTokens: 1000, cacheCreationInputTokens: 0, contextTokens: 1500 });
  assert.match(cost.output.text, /^Total Tokens Used: 3,200 \(2,000 in, 200 out, 1,000 cache read, 0 cache write\)$/m);
  assert.match(cost.output.text, /^Total Cost: \$0\.0093$/m);
  assert.match(cost.output.text, /^Context Usage: 1,500 \/ 200,000 tokens \(1%\)$/m);
  const builtin = await run('/cost', { store, session: s });
  assert.match(builtin.output.text, /^Total Cost: \$0\.0093$/m, 'the built-in price of Sonnet 4.5 is the one given above');
  const dearer = await run('/cost', { store, session: s, prices: { 'claude-sonnet-4-5': { input: 6, output: 30, cacheRead: 0.6 } } });
  assert.match(dearer.output.text, /^Total Cost: \$0\.02$/m, 'prices override the built-in ones');

  // Before the first prompt there is no session to tell about.
  for (const line of ['/session info', '/cost', '/compact', '/debug context', '/rewind', '/fork', '/files', '/rename x', '/session export', '/session archive']) {
    await fails(line, { store, session: null }, 'NO_SESSION');
  }
  s.close();
});

test('/session export writes Markdown to the file named or session-<id>.md, never over a file', async (t) => {
  const { store } = tempStore(t);
  const root = tempDir(t);
  const s = chat(store, root, ['explain the "cart" module']);
  const named = await run('/session export "notes/my chat.md"', { store, session: s, root: path.join(root, '.') });
  // The missing folder is made.
  assert.equal(named.error, undefined);
  const file = path.join(root, 'notes', 'my chat.md');
  assert.equal(named.output.data.path, file);
  const md = fs.readFileSync(file, 'utf8');
  assert.match(md, /explain the "cart" module/);
  assert.match(md, /Answer 1\./);
  assert.equal(named.output.data.bytes, Buffer.byteLength(md));

  const byId = await run('/session export', { store, session: s, root });
  assert.equal(byId.output.data.path, path.join(root, `session-${s.id.slice(0, 8)}.md`));
  assert.ok(fs.existsSync(byId.output.data.path));
  await fails('/session export', { store, session: s, root }, 'FILE_EXISTS');
  assert.equal(fs.readFileSync(file, 'utf8'), md);
  await fails('/session export a.md b.md', { store, session: s, root }, 'INVALID_COMMAND');
  s.close();
});

test('/session archive hides the session and asks for a new one; /new and /rename', async (t) => {
  const { store, dir } = tempStore(t);
  const s = chat(store, dir, ['first']);
  await s.flush();
  const renamed = await run('/rename Cart   rework', { store, session: s });
  assert.equal(store.sessionInfo(s.id).title, 'Cart rework');
  assert.deepEqual(renamed.output.data, { id: s.id, title: 'Cart rework' });
  await fails('/rename', { store, session: s }, 'INVALID_COMMAND');

  const fresh = await run('/new', { store, session: s });
  assert.deepEqual(fresh.action, { type: 'new-session' });
  assert.deepEqual(fresh.output.data, { previous: s.id });

  const r = await run('/session archive', { store, session: s, projectPath: dir });
  assert.deepEqual(r.action, { type: 'new-session' });
  assert.deepEqual(store.listSessions({ projectPath: dir }), []);
  assert.ok(store.sessionInfo(s.id).archivedAt);
  assert.equal(s.messages().length, 2, 'nothing is deleted');
  // The app lets the session go as it starts the new one: it stays archived.
  s.close();
  assert.deepEqual(store.listSessions({ projectPath: dir }), []);
  assert.equal(store.listSessions({ projectPath: dir, includeArchived: true })[0].id, s.id);
});

test('/resume with an id or prefix opens that session; without one hands over a picker', async (t) => {
  const { store, dir } = tempStore(t);
  const a = chat(store, dir, ['alpha']);
  const b = chat(store, dir, ['beta']);
  await store.flush();
  // Ids made in the same moment share their first characters: the prefix that tells them apart.
  let common = 0;
  while (a.id[common] === b.id[common]) common++;
  const byPrefix = await run(`/resume ${a.id.slice(0, common + 1)}`, { store, session: b, projectPath: dir });
  assert.deepEqual(byPrefix.action, { type: 'open-session', sessionId: a.id, reason: 'resume' });
  assert.equal(byPrefix.output.data.id, a.id);
  assert.match(byPrefix.output.text, /Resuming "alpha"/);

  const same = await run(`/resume ${b.id}`, { store, session: b, projectPath: dir });
  assert.equal(same.action, undefined);

  const pick = await run('/resume', { store, session: b, projectPath: dir });
  assert.equal(pick.action.type, 'pick-session');
  assert.deepEqual(pick.action.sessions.map((s) => s.id), [b.id, a.id]);
  const none = await run('/resume', { store, session: null, projectPath: path.join(dir, 'elsewhere') });
  assert.equal(none.action, undefined);

  const both = await fails(`/resume ${a.id.slice(0, common)}`, { store, session: b }, 'AMBIGUOUS_ID');
  assert.match(both.message, /alpha.*beta|beta.*alpha/);
  const missing = await fails('/resume ffffffff', { store, session: b }, 'SESSION_NOT_FOUND');
  assert.match(missing.message, /ffffffff/);
  a.close();
  b.close();
});

test('/rewind goes back n prompts without deleting; /fork opens a copy', async (t) => {
  const { store, dir } = tempStore(t);
  const s = chat(store, dir, ['one', 'two', 'three']);
  const r = await run('/rewind', { store, session: s });
  assert.equal(r.action.type, 'reload');
  assert.equal(r.action.prompt, 'three');
  assert.deepEqual(s.messages().map((m) => m.content[0].text), ['one', 'Answer 1.', 'two', 'Answer 2.']);
  assert.equal(s.tree().nodes.length, 6, 'the rewound messages are kept');

  await fails('/rewind 3', { store, session: s }, 'NOTHING_TO_REWIND');
  await fails('/rewind 2', { store, session: s }, 'NOTHING_TO_REWIND');
  await fails('/rewind zero', { store, session: s }, 'INVALID_COMMAND');
  await fails('/rewind 0', { store, session: s }, 'INVALID_COMMAND');

  const f = await run('/fork', { store, session: s });
  assert.equal(f.action.type, 'open-session');
  assert.equal(f.action.reason, 'fork');
  const forked = store.openSession(f.action.sessionId);
  assert.deepEqual(forked.messages(), s.messages());
  assert.equal(store.sessionInfo(forked.id).forkedFrom.sessionId, s.id);
  forked.close();

  // Two prompts back from a longer branch.
  s.appendUserMessage('four');
  const two = await run('/rewind 2', { store, session: s });
  assert.equal(two.action.prompt, 'two');
  assert.deepEqual(s.messages().map((m) => m.content[0].text), ['one', 'Answer 1.']);
  s.close();
});

test('/compact shows the plan and asks; --apply summarizes with the caller\'s summarizer; /debug context reports', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, conversation(40), { contextWindow: 200_000 });
  const { calls, summarize } = recordingSummarizer();

  const plan = await run('/compact', { store, session: s, summarize });
  assert.equal(plan.output.data.compactable, true);
  assert.equal(plan.output.data.keptTurns, 3);
  assert.match(plan.output.text, new RegExp(`summarize ${plan.output.data.summarizedMessageCount} older messages and keep the last 3 turns`));
  assert.deepEqual(plan.action, { type: 'confirm', question: 'Compact the session now?', line: '/compact --apply' });
  assert.equal(calls.length, 0, 'a plan calls nothing');

  const noSummarizer = await run('/compact', { store, session: s });
  assert.equal(noSummarizer.action, undefined);
  assert.match(noSummarizer.output.text, /needs a summarizer/);
  await fails('/compact --apply', { store, session: s }, 'NO_SUMMARIZER');

  const before = await run('/debug context', { store, session: s, contextWindow: 200_000 });
  assert.equal(before.output.data.builtNow, true);
  assert.equal(before.output.data.boundary, undefined);
  assert.match(before.output.text, /^No context was built in this process yet/);

  const applied = await run('/compact --apply', { store, session: s, summarize, keepRecentTurns: 2 });
  assert.equal(applied.output.data.compacted, true);
  assert.equal(applied.output.data.plan.keptTurns, 2);
  assert.ok(calls.length >= 1);
  assert.match(applied.output.text, /^Compacted: \d+ messages summarized \(\d+ summarizer calls?\); the context goes from [\d,]+ to [\d,]+ tokens\./);
  assert.equal(s.messages().length, 40, 'nothing is deleted');

  // The next build starts from the boundary; /debug context shows that build, not a new one.
  const built = s.buildContext({ contextWindow: 200_000 });
  const after = await run('/debug context', { store, session: s });
  assert.equal(after.output.data.builtNow, false);
  assert.equal(after.output.data.strategy, built.strategy);
  assert.equal(after.output.data.tokensUsed, built.tokensUsed);
  assert.ok(after.output.data.boundary);
  assert.equal(after.output.text, built.debug.text.replace(/\n$/, ''));

  // A summarizer that fails is reported, not thrown; nothing was written.
  const broken = sessionWith(store, conversation(40));
  const err = await fails('/compact --apply', { store, session: broken, summarize: async () => { throw new Error('model unreachable'); } }, 'COMMAND_FAILED');
  assert.equal(err.message, 'model unreachable');
  assert.equal((await broken.compact({ dryRun: true })).plan.boundary, undefined);
  s.close();
  broken.close();
});

test('/files lists snapshots; /restore asks, then writes; a path leading out of the root is refused', async (t) => {
  const { store } = tempStore(t);
  const root = tempDir(t);
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'app.js'), 'let v = 1;\n');
  const s = store.createSession({ projectPath: root });
  assert.match((await run('/files', { store, session: s })).output.text, /^No file snapshots/);
  const u1 = s.appendUserMessage('bump it');
  await s.snapshotFiles(['src/app.js', 'src/new.js']);
  fs.writeFileSync(path.join(root, 'src', 'app.js'), 'let v = 2;\n');

  const list = await run('/files', { store, session: s });
  assert.equal(list.output.data.length, 1);
  assert.match(list.output.text, new RegExp(`^${u1.uuid.slice(0, 8)}  \\S+ \\S+  src/app\\.js, src/new\\.js \\(deleted\\)$`, 'm'));

  const ask = await run(`/restore ${u1.uuid.slice(0, 8)}`, { store, session: s, root });
  assert.deepEqual(ask.action, { type: 'confirm', question: 'Overwrite 1 file?', line: `/restore ${u1.uuid} --yes` });
  assert.deepEqual(ask.output.data.written, ['src/app.js']);
  assert.equal(fs.readFileSync(path.join(root, 'src', 'app.js'), 'utf8'), 'let v = 2;\n', 'asking writes nothing');

  const done = await run(ask.action.line, { store, session: s, root });
  assert.deepEqual(done.output.data.written, ['src/app.js']);
  assert.equal(fs.readFileSync(path.join(root, 'src', 'app.js'), 'utf8'), 'let v = 1;\n');

  // A later message's snapshot adds a file: restoring there writes the files of both.
  s.ingest({ type: 'text', text: 'Bumped.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  fs.writeFileSync(path.join(root, 'README.md'), '# App\n');
  const u2 = s.appendUserMessage('now the readme');
  await s.snapshotFiles(['README.md']);
  const later = await run(`/restore ${u2.uuid}`, { store, session: s, root });
  assert.deepEqual(later.output.data.written, ['README.md', 'src/app.js']);
  assert.match(later.output.text, /2 files would be written into .*: README\.md, src\/app\.js; 1 did not exist then and are left as they are\./);

  await fails('/restore 00000000', { store, session: s, root }, 'SNAPSHOT_NOT_FOUND');
  await fails('/restore', { store, session: s, root }, 'INVALID_COMMAND');

  // src is now a link to a folder outside the root: writing through it would escape.
  const outside = tempDir(t);
  const into = tempDir(t);
  fs.symlinkSync(outside, path.join(into, 'src'));
  const escape = await fails(`/restore ${u1.uuid} --yes`, { store, session: s, root: into }, 'PATH_ESCAPE');
  assert.match(escape.message, /src/);
  assert.deepEqual(fs.readdirSync(outside), [], 'nothing is written outside the root');
  s.close();
});
