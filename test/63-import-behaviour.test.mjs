// store.import() as a program uses it: damaged lines reported and skipped, an import run
// twice adding nothing, progress for a progress bar, subagent transcripts found beside
// their parent in Claude Code's own layout, errors, and an imported session going on live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempStore, tempDir, sessionError } from './helpers/common.mjs';
import { CLAUDE_CODE, CODEX, REAL, jsonlFiles, readRecords, allEnvelopes } from './helpers/transcripts.mjs';

const PARENT = path.join(CLAUDE_CODE, 'moredip__session-share__samples__claude-code-projects__0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl');
const SESSION = '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68';
const SUBAGENTS = jsonlFiles(CLAUDE_CODE).filter((f) => f.startsWith(PARENT.replace(/\.jsonl$/, '__subagents__')));

test('a damaged line is reported with its number and skipped; every other line imports', async (t) => {
  const dir = tempDir(t);
  const lines = fs.readFileSync(PARENT, 'utf8').trimEnd().split('\n');
  const cut = lines[10].slice(0, lines[10].length / 2); // a torn write: half a record
  const damaged = [...lines.slice(0, 10), cut, ...lines.slice(11), '{"type": 7}', '[1, 2]'];
  const file = path.join(dir, `${SESSION}.jsonl`);
  fs.writeFileSync(file, damaged.join('\n') + '\n');

  const { store } = tempStore(t);
  const result = await store.import(file, { format: 'claude-code' });
  assert.deepEqual(result.skipped, [
    { file, line: 11, reason: 'not a JSON object' },
    { file, line: lines.length + 1, reason: 'no string "type"' },
    { file, line: lines.length + 2, reason: 'not a JSON object' },
  ]);
  assert.equal(result.records, lines.length - 1);
  const uuids = new Set((await allEnvelopes(store, SESSION)).map((e) => e.uuid));
  for (const [i, line] of lines.entries()) {
    const uuid = JSON.parse(i === 10 ? '{}' : line).uuid;
    if (uuid) assert.equal(uuids.has(uuid), i !== 10, `line ${i + 1}`);
  }
});

test('a line with a malformed block is skipped, naming the block', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'bad-block.jsonl');
  const good = { type: 'user', uuid: '2f0c6a1e-8c55-4f6e-9d61-1b6a4b8b0c01', parentUuid: null, sessionId: 's-bad', timestamp: '2025-01-01T00:00:00.000Z', message: { role: 'user', content: 'hi' } };
  const bad = { ...good, uuid: '2f0c6a1e-8c55-4f6e-9d61-1b6a4b8b0c02', message: { role: 'user', content: [{ type: 'tool_result' }] } };
  fs.writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
  const { store } = tempStore(t);
  const result = await store.import(file);
  assert.equal(result.records, 1);
  assert.deepEqual(result.skipped.map((s) => [s.line, s.reason]), [[2, 'message.content[0]: tool_result block: field "tool_use_id" must be a string']]);
});

test('importing the same files twice adds nothing and changes nothing', async (t) => {
  const { store } = tempStore(t);
  const first = await store.import(REAL);
  assert.ok(first.records > 1000);
  const listed = store.listSessions();
  const before = first.sessions.map((id) => store.openSession(id).envelopes());

  const second = await store.import(REAL);
  assert.equal(second.records, 0);
  assert.equal(second.existing, first.records);
  assert.deepEqual(second.sessions, first.sessions);
  const after = first.sessions.map((id) => store.openSession(id).envelopes());
  assert.deepEqual(after, before);
  assert.deepEqual(store.listSessions().map(({ lastAccessedAt, ...rest }) => rest), listed.map(({ lastAccessedAt, ...rest }) => rest),
    'the listing is as it was, but for reading the sessions');
});

test('an import of a subagent transcript and then its parent puts both in one session', async (t) => {
  const { store } = tempStore(t);
  const sub = await store.import(SUBAGENTS[0]);
  assert.deepEqual(sub.sessions, [SESSION]);
  const parent = await store.import(PARENT); // brings the other subagents along, and this one again
  assert.deepEqual(parent.sessions, [SESSION]);
  assert.equal(parent.existing, readRecords(SUBAGENTS[0]).records.length);
  const total = [PARENT, ...SUBAGENTS].reduce((n, f) => n + readRecords(f).records.length, 0);
  assert.equal((await allEnvelopes(store, SESSION)).length, total);
});

test('subagent transcripts are found beside their parent in Claude Code\'s own layout', async (t) => {
  const project = tempDir(t);
  fs.copyFileSync(PARENT, path.join(project, `${SESSION}.jsonl`));
  const subagents = path.join(project, SESSION, 'subagents');
  fs.mkdirSync(subagents, { recursive: true });
  for (const f of SUBAGENTS) fs.copyFileSync(f, path.join(subagents, path.basename(f).replace(/^.*__subagents__/, '')));

  const { store } = tempStore(t);
  const result = await store.import(path.join(project, `${SESSION}.jsonl`));
  const env = await allEnvelopes(store, SESSION);
  const side = env.filter((e) => e.isSidechain);
  assert.equal(side.length, SUBAGENTS.reduce((n, f) => n + readRecords(f).records.length, 0));
  assert.ok(side.every((e) => e.agentId && e.parentToolUseId?.startsWith('toolu_')), 'every subagent record names the call that ran it');
  assert.equal(result.records, env.length);
});

test('progress tells a progress bar how far the import has come, before it resolves', async (t) => {
  const { store } = tempStore(t);
  const reports = [];
  const files = [...jsonlFiles(CLAUDE_CODE), ...jsonlFiles(CODEX)];
  const bytesTotal = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  let resolved = false;
  const pending = store.import(REAL, { onProgress: (p) => reports.push({ ...p, resolved }) });
  const result = await pending;
  resolved = true;

  assert.ok(reports.length >= 2);
  assert.ok(reports.every((p) => !p.resolved), 'every report came before the promise resolved');
  for (const [i, p] of reports.entries()) {
    assert.equal(p.filesTotal, files.length);
    assert.equal(p.bytesTotal, bytesTotal);
    assert.ok(p.bytesDone <= p.bytesTotal && p.filesDone <= p.filesTotal);
    if (i > 0) {
      const prev = reports[i - 1];
      assert.ok(p.bytesDone >= prev.bytesDone && p.filesDone >= prev.filesDone && p.records >= prev.records);
    }
    assert.ok(files.includes(p.file));
  }
  const last = reports.at(-1);
  assert.deepEqual({ ...last, file: undefined, resolved: undefined }, {
    file: undefined, resolved: undefined, filesDone: files.length, filesTotal: files.length, bytesDone: bytesTotal,
    bytesTotal, records: result.records, existing: 0, skipped: result.skipped.length,
  });
});

test('an error thrown by onProgress rejects the import once it has finished', async (t) => {
  const { store } = tempStore(t);
  const boom = new Error('progress bar broke');
  let calls = 0;
  await assert.rejects(store.import(CODEX, { onProgress: () => { calls++; throw boom; } }), (err) => err === boom);
  assert.equal(calls, 1, 'no more reports after the first error');
  assert.equal(store.listSessions().length, 2, 'the import itself went through');
});

test('a file of another format is reported, not misread', async (t) => {
  const { store } = tempStore(t);
  const [rollout] = jsonlFiles(CODEX);
  const result = await store.import(rollout, { format: 'claude-code' });
  assert.deepEqual(result, { sessions: [], records: 0, existing: 0, skipped: [{ file: rollout, line: 0, reason: 'not a claude-code file (it reads as codex)' }] });
  assert.deepEqual(store.listSessions(), []);
});

test('bad arguments are refused', async (t) => {
  const { store, dir } = tempStore(t);
  await assert.rejects(store.import(path.join(dir, 'missing')), sessionError('FILE_ERROR', /no such file/));
  await assert.rejects(store.import(CODEX, { format: 'cursor' }), sessionError('INVALID_ARGUMENT', /format "cursor"/));
  await assert.rejects(store.import(42), TypeError);
  await assert.rejects(store.import(CODEX, { onProgress: 'yes' }), TypeError);
  store.close();
  await assert.rejects(store.import(CODEX), sessionError('STORE_CLOSED'));
});

test('an imported session goes on live from where its main conversation ended', async (t) => {
  const { store } = tempStore(t);
  await store.import(PARENT);
  const s = store.openSession(SESSION);
  const env = s.envelopes();
  const lastMain = env.findLast((e) => !e.isSidechain);
  const turns = s.turns();
  const next = s.appendUserMessage('and now a haiku');
  assert.equal(next.parentUuid, lastMain.uuid);
  assert.equal(next.turn, lastMain.turn + 1);
  assert.deepEqual(s.messages().at(-1), { role: 'user', content: [{ type: 'text', text: 'and now a haiku' }] });
  assert.equal(s.turns().length, turns.length + 1);
});

test('importing and exporting do not count as using a session', async (t) => {
  const { store } = tempStore(t);
  await store.import(PARENT);
  const listed = store.listSessions();
  const last = readRecords(PARENT).records.findLast((r) => r.value.timestamp).value.timestamp;
  assert.equal(listed[0].lastAccessedAt, new Date(last).toISOString(), 'an imported session was last used at its last record');
  await store.export(SESSION, { format: 'markdown' });
  await store.import(PARENT);
  assert.deepEqual(store.listSessions(), listed);
});

test('envelopes() follows the branch at the head and keeps every record that is not a message', async (t) => {
  const { store } = tempStore(t);
  await store.import(PARENT);
  const s = store.openSession(SESSION);
  const onBranch = new Set(s.envelopes().map((e) => e.uuid));
  const all = await allEnvelopes(store, SESSION);
  const notMessages = all.filter((e) => !e.message);
  assert.ok(notMessages.length > 10, 'queue operations and file-history snapshots');
  for (const e of notMessages) assert.ok(onBranch.has(e.uuid), `${e.type} ${e.uuid} is on the branch`);
  const abandoned = all.filter((e) => !onBranch.has(e.uuid));
  assert.deepEqual(abandoned.map((e) => e.message.content[0].text ?? e.message.content), ['are they still being written?', '[Request interrupted by user]'],
    'only the prompt the user interrupted and asked again is off the branch');
  s.close();
});
