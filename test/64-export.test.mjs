// store.export(): sessionkeep's own JSONL and JSON restore a session exactly through
// store.import(); a live session exported as a Claude Code transcript reads back as the
// same conversation; Markdown for people; writing to a file; errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempStore, sessionError } from './helpers/common.mjs';
import { recordEveryBlock, everyBlockMessages, recordSeed000 } from './helpers/fixtures.mjs';
import { CLAUDE_CODE } from './helpers/transcripts.mjs';

/** recordRich records every block type, state on the messages, and a subagent. */
function recordRich(store) {
  const s = store.createSession({ projectPath: '/work/app', title: 'Everything', provider: 'claude', model: 'claude-sonnet-4-5', contextWindow: 200000 });
  s.setContext({ cwd: '/work/app', gitBranch: 'main', platform: 'linux' });
  recordEveryBlock(s);
  s.ingest({ type: 'message_start', id: 'msg_task', todos: [{ content: 'Delegate', status: 'in_progress', activeForm: 'Delegating' }] });
  s.ingest({ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'look around' } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
  s.appendUserMessage('look around', { agentId: 'a1', parentToolUseId: 'toolu_task', thinkingMetadata: { level: 'high', disabled: false, triggers: [] } });
  s.ingest({ type: 'message_start', id: 'msg_sub', agentId: 'a1', parentToolUseId: 'toolu_task' });
  s.ingest({ type: 'text', text: 'Nothing here.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_task', content: 'Nothing here.' });
  s.ingest({ type: 'text', text: 'The subagent found nothing.' });
  s.ingest({ type: 'error', message: 'overloaded' });
  return s;
}

/** everything reads all a store shows of one session (its listing first: opening it is an access). */
function everything(store, id) {
  const info = store.listSessions().find((i) => i.id === id);
  const s = store.openSession(id);
  const all = { info, envelopes: s.envelopes(), messages: s.messages(), turns: s.turns(), tokenTracker: s.tokenTracker() };
  s.close();
  return all;
}

for (const format of ['jsonl', 'json']) {
  test(`${format}: export then import restores the session exactly`, async (t) => {
    const { store, dir } = tempStore(t);
    const id = recordRich(store).id;
    const file = path.join(dir, `backup.${format}`);
    assert.equal(await store.export(id, { format, path: file }), undefined);
    const before = everything(store, id);

    const { store: other } = tempStore(t);
    const result = await other.import(file, { format });
    assert.deepEqual(result, { sessions: [id], records: before.envelopes.length, existing: 0, skipped: [] });
    assert.deepEqual(everything(other, id), before);
    const again = await other.import(file);
    assert.deepEqual([again.records, again.existing], [0, before.envelopes.length]);
  });
}

test('jsonl is a header line, then the envelopes as envelopes() gives them', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ title: 'Seed' });
  recordSeed000(s);
  const [header, ...lines] = (await store.export(s.id, { format: 'jsonl' })).trimEnd().split('\n').map((l) => JSON.parse(l));
  const info = store.listSessions()[0];
  assert.deepEqual(header, { format: 'sessionkeep', version: 1, session: { ...info, tokenTracker: s.tokenTracker() } });
  assert.deepEqual(lines, s.envelopes());
});

test('an imported Claude Code session keeps its source through our own format', async (t) => {
  const { store, dir } = tempStore(t);
  const { sessions: [id] } = await store.import(path.join(CLAUDE_CODE, 'moredip__session-share__samples__claude-code-projects__0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl'));
  const file = path.join(dir, 'backup.jsonl');
  await store.export(id, { format: 'jsonl', path: file });
  const { store: other } = tempStore(t);
  await other.import(file);
  assert.deepEqual(everything(other, id), everything(store, id));
  assert.equal(await other.export(id, { format: 'claude-code' }), await store.export(id, { format: 'claude-code' }));
});

test('a live session exported as Claude Code has what readers require, and reads back as the same conversation', async (t) => {
  const { store, dir } = tempStore(t);
  const s = recordRich(store);
  const text = await store.export(s.id, { format: 'claude-code' });
  const records = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  const env = s.envelopes();
  assert.equal(records.length, env.length);
  for (const [i, r] of records.entries()) {
    assert.equal(r.uuid, env[i].uuid);
    assert.equal(r.parentUuid, env[i].parentUuid);
    assert.equal(r.timestamp, env[i].timestamp);
    assert.equal(r.sessionId, s.id);
    assert.equal(r.isSidechain, env[i].isSidechain);
    assert.equal(r.userType, 'external');
    assert.equal(typeof r.version, 'string');
    assert.equal(r.cwd, '/work/app');
    assert.equal(r.gitBranch, 'main');
    assert.equal(r.type, env[i].message.role);
    assert.deepEqual(r.message.content, env[i].message.content);
    if (r.type === 'assistant') {
      assert.equal(r.message.type, 'message');
      assert.equal(typeof r.message.id, 'string');
      assert.equal(typeof r.message.model, 'string');
    }
  }
  assert.deepEqual(records[2].toolUseResult, undefined, 'three results: no single execution record');
  assert.equal(records.find((r) => r.agentId === 'a1' && r.type === 'user').thinkingMetadata.level, 'high');

  const file = path.join(dir, 'claude.jsonl');
  fs.writeFileSync(file, text);
  const { store: other } = tempStore(t);
  await other.import(file, { format: 'claude-code' });
  const back = other.openSession(s.id);
  const want = s.messages();
  const got = back.messages();
  assert.deepEqual(got.map((m) => [m.role, m.content]), want.map((m) => [m.role, m.content]));
  for (const [i, m] of want.entries()) {
    for (const [k, v] of Object.entries(m)) assert.deepEqual(got[i][k], v, `message ${i} field ${k}`);
  }
  assert.deepEqual(back.envelopes().map((e) => [e.uuid, e.parentUuid, e.isSidechain, e.agentId]), env.map((e) => [e.uuid, e.parentUuid, e.isSidechain, e.agentId]));
  assert.deepEqual(back.turns(), s.turns());
  assert.deepEqual(everyBlockMessages()[0].content, got[0].content);
});

test('markdown is the conversation for people to read', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ title: 'Fences' });
  s.appendUserMessage('Show me a code block');
  s.ingest({ type: 'thinking', thinking: 'They want fences.' });
  s.ingest({ type: 'signature', signature: 'sig' });
  s.ingest({ type: 'tool_use', id: 'toolu_cat', name: 'cat', input: { path: 'README.md' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_cat', content: 'before\n````\ninside a fence\n````\nafter', isError: true });
  s.ingest({ type: 'text', text: 'Done.' });
  s.ingest({ type: 'done' });
  const md = await store.export(s.id, { format: 'markdown' });
  assert.match(md, /^# Fences\n/);
  assert.match(md, /\n## User\n[^]*Show me a code block\n/);
  assert.match(md, /<details><summary>Thinking<\/summary>\n\nThey want fences\.\n\n<\/details>/);
  assert.match(md, /\*\*Tool call\*\* `cat` \(`toolu_cat`\)\n\n```json\n\{\n  "path": "README.md"\n\}\n```/);
  assert.match(md, /\*\*Error\*\* of `cat` \(`toolu_cat`\)\n\n`````\nbefore\n````\ninside a fence\n````\nafter\n`````\n/);
  assert.match(md, /## Assistant\n\n\*[^*]+\*\n\nDone\.\n/);
});

test('export to a file writes it whole, readable by its owner only', async (t) => {
  const { store, dir } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const file = path.join(dir, 'out.md');
  fs.writeFileSync(file, 'old content that is longer than nothing');
  fs.chmodSync(file, 0o644);
  assert.equal(await store.export(s.id, { format: 'markdown', path: file }), undefined);
  assert.equal(fs.readFileSync(file, 'utf8'), await store.export(s.id, { format: 'markdown' }));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('out.md')), ['out.md'], 'no temporary file left');
});

test('export errors', async (t) => {
  const { store, dir } = tempStore(t);
  const id = store.createSession().id;
  await assert.rejects(store.export(id, { format: 'pdf' }), sessionError('INVALID_ARGUMENT', /format "pdf"/));
  await assert.rejects(store.export('no-such-session', { format: 'jsonl' }), sessionError('SESSION_NOT_FOUND'));
  await assert.rejects(store.export(id, { format: 'jsonl', path: path.join(dir, 'missing', 'x.jsonl') }), sessionError('FILE_ERROR'));
  await assert.rejects(store.export(id), TypeError);
  await assert.rejects(store.export(id, { format: 'jsonl', path: 3 }), TypeError);
  assert.equal(await store.export(id, { format: 'claude-code' }), '', 'an empty session is an empty transcript');
});
