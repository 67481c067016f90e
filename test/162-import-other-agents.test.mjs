// Importing the histories of other agents through the addon, detected without a format:
// Gemini CLI's chat files (the JSONL of newer versions and the JSON of older ones),
// OpenCode's database (written with the sqlite3 shell) and its older JSON storage, and
// aider's .aider.chat.history.md. The files are written here the way those agents write
// them (Gemini CLI's ChatRecordingService, OpenCode's session tables and storage files,
// aider's InputOutput), in their own folder
// layout, and the import must give full sessions back: tool calls with their results,
// thinking, usage, model and project path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { tempStore, tempDir } from './helpers/common.mjs';

/** geminiChat writes a chat as Gemini CLI does: metadata, then each message appended again as it changes. */
function geminiChat(dir) {
  const chats = path.join(dir, '.gemini', 'tmp', 'app', 'chats');
  fs.mkdirSync(chats, { recursive: true });
  fs.writeFileSync(path.join(chats, '..', '.project_root'), '/w/app'); // the project registry's marker
  const call = { id: 'call-1', name: 'read_file', args: { absolute_path: '/w/app/README.md' }, status: 'executing', timestamp: '2026-02-01T08:00:03.000Z' };
  const answer = { id: 'g1', timestamp: '2026-02-01T08:00:02.000Z', type: 'gemini', content: '', toolCalls: [call],
    thoughts: [{ subject: 'Reading', description: 'The README says what the app is.', timestamp: '2026-02-01T08:00:02.000Z' }], model: 'gemini-2.5-pro' };
  const done = { ...answer, toolCalls: [{ ...call, status: 'success', result: [{ functionResponse: { id: 'call-1', name: 'read_file', response: { output: '# App' } } }] }],
    tokens: { input: 2000, output: 40, cached: 1500, thoughts: 60, tool: 0, total: 2100 } };
  const lines = [
    { sessionId: 'gem-session-1', projectHash: 'f00d', startTime: '2026-02-01T08:00:00.000Z', lastUpdated: '2026-02-01T08:00:00.000Z', kind: 'main' },
    { id: 'u1', timestamp: '2026-02-01T08:00:01.000Z', type: 'user', content: [{ text: 'what is this app?' }] },
    answer,
    done,
    { id: 'g2', timestamp: '2026-02-01T08:00:05.000Z', type: 'gemini', content: [{ text: 'A demo app.' }], model: 'gemini-2.5-pro',
      tokens: { input: 2100, output: 5, cached: 0, thoughts: 0, total: 2105 } },
    { $set: { summary: 'What the app is' } },
  ];
  const file = path.join(chats, 'session-2026-02-01T08-00-gem-sess.jsonl');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const legacy = { sessionId: 'gem-old', projectHash: 'f00d', startTime: '2025-07-01T08:00:00.000Z', lastUpdated: '2025-07-01T08:01:00.000Z',
    messages: [{ id: 'a', timestamp: '2025-07-01T08:00:01.000Z', type: 'user', content: 'hi' },
      { id: 'b', timestamp: '2025-07-01T08:00:02.000Z', type: 'gemini', content: 'Hello!', model: 'gemini-2.5-flash' }] };
  fs.writeFileSync(path.join(chats, 'session-2025-07-01T08-00-gem-old.json'), JSON.stringify(legacy, null, 2));
  return chats;
}

/** aiderHistory writes a history as aider does, in a project folder. */
function aiderHistory(dir) {
  const project = path.join(dir, 'proj');
  fs.mkdirSync(project);
  const out = (s) => `> ${s}  \n`;
  const user = (s) => `\n#### ${s.split('\n').join('  \n#### ')}  \n`;
  const ai = (s) => `\n${s}\n\n`;
  const text = `\n# aider chat started at 2025-05-06 07:08:09\n\n` + out('Aider v0.82.0') +
    out('Main model: anthropic/claude-sonnet-4-20250514 with diff edit format') +
    user('rename foo to bar') + ai('I renamed it.\n\nfoo.py\n```\n<<<<<<< SEARCH\nfoo = 1\n=======\nbar = 1\n>>>>>>> REPLACE\n```') +
    out('Tokens: 3.1k sent, 2.0k cache hit, 120 received. Cost: $0.01 message, $0.01 session.') + out('Applied edit to foo.py') +
    `\n# aider chat started at 2025-05-07 10:00:00\n\n` + user('thanks') + ai('You are welcome.');
  const file = path.join(project, '.aider.chat.history.md');
  fs.writeFileSync(file, text);
  return { project, file };
}

test('Gemini CLI chat files import from their folder, told by their shape', async (t) => {
  const chats = geminiChat(tempDir(t));
  const { store } = tempStore(t);
  const result = await store.import(chats);
  assert.deepEqual(result.skipped, []);
  assert.deepEqual(result.sessions.sort(), ['gem-old', 'gem-session-1']);

  const info = store.listSessions().find((s) => s.id === 'gem-session-1');
  assert.equal(info.projectPath, '/w/app');
  assert.equal(info.model, 'gemini-2.5-pro');
  assert.equal(info.provider, 'google');
  assert.equal(info.title, 'What the app is');
  assert.equal(info.tokens.cacheReadTokens ?? info.tokens.cacheRead ?? 1500, 1500);

  const messages = store.openSession('gem-session-1').messages();
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  assert.deepEqual(messages[1].content.map((b) => b.type), ['thinking', 'tool_use']);
  assert.equal(messages[1].content[0].thinking, 'Reading\n\nThe README says what the app is.');
  assert.deepEqual(messages[1].content[1].input, { absolute_path: '/w/app/README.md' });
  assert.deepEqual(messages[2].content, [{ type: 'tool_result', tool_use_id: 'call-1', content: '# App' }]);
  assert.equal(messages[1].model, 'gemini-2.5-pro');
  assert.deepEqual(messages[1].usage, { input_tokens: 500, output_tokens: 100, cache_read_input_tokens: 1500, cache_creation_input_tokens: 0 });

  const env = store.openSession('gem-session-1').envelopes();
  assert.ok(env.every((e) => e.source.format === 'gemini'));
  assert.equal(env[0].context.cwd, '/w/app');

  assert.equal(store.listSessions().find((s) => s.id === 'gem-old').projectPath, '/w/app');
  const old = store.openSession('gem-old').messages();
  assert.deepEqual(old.map((m) => m.content[0].text), ['hi', 'Hello!']);

  const again = await store.import(chats);
  assert.equal(again.records, 0, 'importing again adds nothing');
});

test("Gemini CLI's logs.json adds the sessions that have no chat file, and nothing twice", async (t) => {
  const chats = geminiChat(tempDir(t));
  const project = path.dirname(chats);
  const entry = (sessionId, messageId, message, timestamp) => ({ sessionId, messageId, type: 'user', message, timestamp });
  fs.writeFileSync(path.join(project, 'logs.json'), JSON.stringify([
    entry('gem-session-1', 0, 'what is this app?', '2026-02-01T08:00:01.000Z'),
    entry('gem-before-chats', 0, 'list the TODOs', '2025-06-01T09:00:00.000Z'),
    entry('gem-before-chats', 1, '/quit', '2025-06-01T09:05:00.000Z'),
  ], null, 2));
  const { store } = tempStore(t);
  const result = await store.import(project);
  assert.deepEqual(result.skipped, []);
  assert.deepEqual(result.sessions.sort(), ['gem-before-chats', 'gem-old', 'gem-session-1']);

  const prompts = store.openSession('gem-session-1').messages().filter((m) => m.role === 'user' && m.content[0].type === 'text');
  assert.deepEqual(prompts.map((m) => m.content[0].text), ['what is this app?'], 'the chat file holds the prompt; the log adds it not again');
  const logged = store.openSession('gem-before-chats');
  assert.deepEqual(logged.messages().map((m) => m.content[0].text), ['list the TODOs']);
  assert.deepEqual(logged.envelopes().map((e) => e.type), ['user', 'command']);
  const info = store.listSessions().find((s) => s.id === 'gem-before-chats');
  assert.equal(info.projectPath, '/w/app');
  assert.equal(info.title, 'list the TODOs');
  assert.equal((await store.import(project)).records, 0, 'importing again adds nothing');
});

test('an aider history imports as one session a run, in its project', async (t) => {
  const { project, file } = aiderHistory(tempDir(t));
  const { store } = tempStore(t);
  const result = await store.import(file);
  assert.deepEqual(result.skipped, []);
  assert.equal(result.sessions.length, 2);

  const [first, second] = result.sessions.map((id) => store.listSessions().find((s) => s.id === id));
  assert.equal(first.projectPath, project);
  assert.equal(first.title, 'rename foo to bar');
  assert.equal(first.model, 'anthropic/claude-sonnet-4-20250514');
  assert.equal(first.createdAt, '2025-05-06T07:08:09.000Z');
  assert.equal(second.title, 'thanks');

  const messages = store.openSession(first.id).messages();
  assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant']);
  assert.match(messages[1].content[0].text, /<<<<<<< SEARCH\nfoo = 1\n=======\nbar = 1\n>>>>>>> REPLACE/);
  assert.deepEqual(messages[1].usage, { input_tokens: 3100, output_tokens: 120, cache_read_input_tokens: 2000, cache_creation_input_tokens: 0 });
  const outputs = store.openSession(first.id).envelopes().filter((e) => e.type === 'output');
  assert.deepEqual(outputs.map((e) => e.source.text), ['Aider v0.82.0\nMain model: anthropic/claude-sonnet-4-20250514 with diff edit format',
    'Tokens: 3.1k sent, 2.0k cache hit, 120 received. Cost: $0.01 message, $0.01 session.\nApplied edit to foo.py']);

  const folder = await store.import(project, { format: 'aider' });
  assert.equal(folder.records, 0, 'the history is found in its folder, and imports once');
});

/** openCodeMessages is a session as OpenCode stores it: a prompt, and an answer of two steps. */
function openCodeMessages() {
  const tokens = (input, output, read) => ({ input, output, reasoning: 0, cache: { read, write: 0 } });
  return [
    { id: 'msg_a1', info: { role: 'user', time: { created: 1767000000000 }, agent: 'build', model: { providerID: 'openai', modelID: 'gpt-5' } },
      parts: [{ id: 'prt_a1', type: 'text', text: 'count the lines of main.go' }] },
    { id: 'msg_a2', info: { role: 'assistant', time: { created: 1767000001000, completed: 1767000004000 }, parentID: 'msg_a1', modelID: 'gpt-5',
      providerID: 'openai', mode: 'build', agent: 'build', path: { cwd: '/w/tool', root: '/w/tool' }, cost: 0.002, tokens: tokens(120, 14, 0) },
    parts: [
      { id: 'prt_b1', type: 'step-start' },
      { id: 'prt_b2', type: 'tool', callID: 'call_9', tool: 'bash', state: { status: 'completed', input: { command: 'wc -l main.go' },
        output: '42 main.go', title: 'wc', metadata: {}, time: { start: 1767000001500, end: 1767000002000 } } },
      { id: 'prt_b3', type: 'step-finish', reason: 'tool-calls', cost: 0.001, tokens: tokens(100, 10, 0) },
      { id: 'prt_b4', type: 'step-start' },
      { id: 'prt_b5', type: 'text', text: 'main.go has 42 lines.' },
      { id: 'prt_b6', type: 'step-finish', reason: 'stop', cost: 0.001, tokens: tokens(20, 4, 100) },
    ] },
  ];
}

/** openCodeDatabase writes OpenCode's database with the sqlite3 shell, in the tables its migrations make. */
function openCodeDatabase(dir) {
  const file = path.join(dir, 'opencode.db');
  const q = (v) => `'${String(v).replaceAll("'", "''")}'`;
  const sql = [
    'CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);',
    'CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);',
    'CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);',
    `INSERT INTO session VALUES ('ses_db', 'prj', NULL, 'calm-owl', '/w/tool', 'Line count', '1.1.0', 1767000000000, 1767000004000);`,
  ];
  for (const m of openCodeMessages()) {
    sql.push(`INSERT INTO message VALUES (${q(m.id)}, 'ses_db', ${m.info.time.created}, 0, ${q(JSON.stringify(m.info))});`);
    for (const { id, ...p } of m.parts) sql.push(`INSERT INTO part VALUES (${q(id)}, ${q(m.id)}, 'ses_db', 0, 0, ${q(JSON.stringify(p))});`);
  }
  execFileSync('sqlite3', [file], { input: sql.join('\n') });
  return file;
}

/** openCodeStorage writes the same session as OpenCode's older JSON files. */
function openCodeStorage(dir) {
  const root = path.join(dir, 'opencode', 'storage');
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
  };
  write(path.join(root, 'session', 'prj', 'ses_files.json'), { id: 'ses_files', projectID: 'prj', directory: '/w/tool', title: 'Line count',
    version: '0.5.0', time: { created: 1767000000000, updated: 1767000004000 } });
  for (const m of openCodeMessages()) {
    write(path.join(root, 'message', 'ses_files', `${m.id}.json`), { id: m.id, sessionID: 'ses_files', ...m.info });
    for (const p of m.parts) write(path.join(root, 'part', m.id, `${p.id}.json`), { ...p, sessionID: 'ses_files', messageID: m.id });
  }
  return path.join(dir, 'opencode');
}

/** openCodeExport writes the same session as `opencode export ses_export > file` prints it. */
function openCodeExport(dir) {
  const file = path.join(dir, 'line-count.json');
  const info = { id: 'ses_export', slug: 'calm-owl', projectID: 'prj', directory: '/w/tool', title: 'Line count', version: '1.18.18',
    time: { created: 1767000000000, updated: 1767000004000 } };
  const messages = openCodeMessages().map((m) => ({ info: { id: m.id, sessionID: 'ses_export', ...m.info },
    parts: m.parts.map((p) => ({ ...p, sessionID: 'ses_export', messageID: m.id })) }));
  fs.writeFileSync(file, JSON.stringify({ info, messages }, null, 2));
  return file;
}

test("OpenCode's database, its older JSON storage and its export import, told by their shape and place", async (t) => {
  const dir = tempDir(t);
  const db = openCodeDatabase(dir);
  const storage = openCodeStorage(dir);
  const exported = openCodeExport(dir);
  const { store } = tempStore(t);
  const fromDb = await store.import(db);
  const fromFiles = await store.import(storage);
  const fromExport = await store.import(exported);
  assert.deepEqual([fromDb.skipped, fromFiles.skipped, fromExport.skipped], [[], [], []]);
  assert.deepEqual([fromDb.sessions, fromFiles.sessions, fromExport.sessions], [['ses_db'], ['ses_files'], ['ses_export']]);

  for (const id of ['ses_db', 'ses_files', 'ses_export']) {
    const info = store.listSessions().find((s) => s.id === id);
    assert.equal(info.projectPath, '/w/tool');
    assert.equal(info.title, 'Line count');
    assert.equal(info.model, 'gpt-5');
    const messages = store.openSession(id).messages();
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], id);
    assert.deepEqual(messages[1].content, [{ type: 'tool_use', id: 'call_9', name: 'bash', input: { command: 'wc -l main.go' } }]);
    assert.deepEqual(messages[2].content, [{ type: 'tool_result', tool_use_id: 'call_9', content: '42 main.go' }]);
    assert.equal(messages[3].content[0].text, 'main.go has 42 lines.');
    assert.deepEqual(messages[1].usage, { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    assert.deepEqual(messages[3].usage, { input_tokens: 20, output_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 });
  }
  const again = await store.import(db, { format: 'opencode' });
  assert.equal(again.records, 0, 'importing again adds nothing');
});
