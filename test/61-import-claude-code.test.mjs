// Importing every real Claude Code transcript in ../shared/fixtures/real/claude_code (1.0.x
// to 2.1.x, subagent transcripts beside their parents) through the addon: per file, the
// census of the source equals the census of what the store holds; messages() joins the
// lines Claude Code split; the Claude Code export gives back every record field for field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { tempStore } from './helpers/common.mjs';
import { CLAUDE_CODE, jsonlFiles, readRecords, census, blocksOf, allEnvelopes } from './helpers/transcripts.mjs';

const files = jsonlFiles(CLAUDE_CODE);

/** importAll imports the whole folder into a fresh store once per test. */
async function importAll(t) {
  const { store } = tempStore(t);
  const result = await store.import(CLAUDE_CODE, { format: 'claude-code' });
  return { store, result };
}

/** envelopesByUuid maps every stored record of the sessions, on every branch, to its envelope. */
async function envelopesByUuid(store, ids) {
  const map = new Map();
  for (const id of ids) {
    for (const e of await allEnvelopes(store, id)) map.set(e.uuid, e);
  }
  return map;
}

test('the real Claude Code transcripts are there', () => {
  assert.ok(files.length >= 18, `found ${files.length} transcripts in ${CLAUDE_CODE}`);
});

test('every file imports: only the lines that are not records are left out', async (t) => {
  const { result } = await importAll(t);
  const expected = files.flatMap((f) => readRecords(f).bad.map((line) => ({ file: f, line })));
  assert.deepEqual(result.skipped.map(({ file, line }) => ({ file, line })), expected);
  assert.ok(result.skipped.every((s) => s.reason === 'not a JSON object'));
  const total = files.reduce((n, f) => n + readRecords(f).records.length, 0);
  assert.equal(result.records, total);
  assert.equal(result.existing, 0);
});

test('per file, the census of the source equals the census of the store', async (t) => {
  const { store, result } = await importAll(t);
  const stored = await envelopesByUuid(store, result.sessions);
  const totals = {};
  for (const file of files) {
    const { records } = readRecords(file);
    const source = records.map(({ value: r }) => ({
      message: r.type === 'user' || r.type === 'assistant' ? r.message : undefined,
      isSidechain: r.isSidechain === true,
    }));
    const mine = records.filter(({ value: r }) => typeof r.uuid === 'string').map(({ value: r }) => stored.get(r.uuid));
    assert.ok(mine.every(Boolean), `${path.basename(file)}: a record with a uuid is missing from the store`);
    const withoutUuid = source.filter((_, i) => typeof records[i].value.uuid !== 'string');
    const want = census(source);
    const got = census([...mine.map((e) => ({ message: e.message, isSidechain: e.isSidechain })), ...withoutUuid]);
    assert.deepEqual(got, want, path.basename(file));
    for (const [k, v] of Object.entries(want)) totals[k] = (totals[k] ?? 0) + v;
  }
  // The transcripts hold some of everything counted, so the census can tell a loss.
  for (const [k, v] of Object.entries(totals)) assert.ok(v > 0, `no ${k} in the transcripts`);
});

test('every record keeps its uuid, parentUuid and timestamp', async (t) => {
  const { store, result } = await importAll(t);
  const stored = await envelopesByUuid(store, result.sessions);
  for (const file of files) {
    for (const { value: r } of readRecords(file).records) {
      if (typeof r.uuid !== 'string') continue;
      const e = stored.get(r.uuid);
      assert.equal(e.parentUuid, r.parentUuid ?? null, `${r.uuid} parentUuid`);
      assert.equal(e.timestamp, new Date(r.timestamp).toISOString(), `${r.uuid} timestamp`);
      assert.equal(e.sessionId, r.sessionId);
      assert.equal(e.isSidechain, r.isSidechain === true);
      assert.equal(e.source.format, 'claude-code');
      if (r.cwd !== undefined) assert.equal(e.context.cwd, r.cwd);
      if (r.todos !== undefined) assert.deepEqual(e.todos, r.todos);
      if (r.thinkingMetadata !== undefined) assert.deepEqual(e.thinkingMetadata, r.thinkingMetadata);
      if (r.agentId !== undefined) assert.equal(e.agentId, r.agentId);
    }
  }
});

test('subagent records are sidechains linked to the Task call that ran them', async (t) => {
  const { store, result } = await importAll(t);
  const stored = await envelopesByUuid(store, result.sessions);
  // Every parent transcript says which subagent each Task call ran (toolUseResult.agentId).
  const ran = new Map();
  for (const file of files) {
    for (const { value: r } of readRecords(file).records) {
      const id = r.toolUseResult?.agentId;
      const results = blocksOf(r.message).filter((b) => b.type === 'tool_result');
      if (typeof id === 'string' && results.length === 1) ran.set(id, results[0].tool_use_id);
    }
  }
  let linked = 0;
  for (const file of files.filter((f) => f.includes('__subagents__agent-'))) {
    const parent = file.slice(0, file.indexOf('__subagents__')) + '.jsonl';
    for (const { value: r } of readRecords(file).records) {
      if (typeof r.uuid !== 'string') continue;
      const e = stored.get(r.uuid);
      assert.equal(e.isSidechain, true);
      assert.equal(e.agentId, r.agentId);
      if (files.includes(parent)) {
        assert.equal(e.parentToolUseId, ran.get(r.agentId), `${path.basename(file)}: parentToolUseId`);
        linked++;
      }
    }
  }
  assert.ok(linked > 0, 'no subagent transcript had its parent beside it');
});

test('messages() is the main conversation, the lines of one assistant message joined back', async (t) => {
  const { store, result } = await importAll(t);
  for (const id of result.sessions) {
    const s = store.openSession(id);
    const env = s.envelopes();
    // The expected conversation, computed from the stored records: main-chain messages in
    // order, consecutive lines of the same assistant message id, and consecutive tool
    // results, joined.
    const expected = [];
    for (const e of env) {
      if (!e.message || e.isSidechain) continue;
      const last = expected.at(-1);
      const sameAssistant = last && e.type === 'assistant' && last.type === 'assistant' && e.message.id && e.message.id === last.id;
      const moreResults = last && e.type === 'tool_result' && last.type === 'tool_result';
      if (sameAssistant || moreResults) {
        last.content.push(...e.message.content);
        last.message = e.message;
      } else {
        expected.push({ type: e.type, id: e.message.id, content: [...e.message.content], message: e.message });
      }
    }
    const messages = s.messages();
    assert.deepEqual(messages.map((m) => m.content), expected.map((x) => x.content), id);
    assert.deepEqual(messages.map((m) => m.role), expected.map((x) => x.message.role), id);
    const turns = s.turns();
    assert.equal(turns.at(-1)?.endIndex ?? -1, messages.length - 1, `${id}: turns cover the conversation`);
    s.close();
  }
});

test('the Claude Code export gives back every imported record, field for field', async (t) => {
  const { store, result } = await importAll(t);
  const sourceBySession = new Map();
  for (const file of files) {
    const { records } = readRecords(file);
    const sid = records.find((r) => typeof r.value.sessionId === 'string')?.value.sessionId;
    sourceBySession.set(sid, [...(sourceBySession.get(sid) ?? []), ...records.map((r) => r.value)]);
  }
  for (const id of result.sessions) {
    const text = await store.export(id, { format: 'claude-code' });
    const exported = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    const source = sourceBySession.get(id);
    assert.equal(exported.length, source.length, `${id}: record count`);
    const withUuid = (list) => new Map(list.filter((r) => typeof r.uuid === 'string').map((r) => [r.uuid, r]));
    const got = withUuid(exported);
    for (const [uuid, record] of withUuid(source)) assert.deepStrictEqual(got.get(uuid), record, `${id} record ${uuid}`);
    const rest = (list) => list.filter((r) => typeof r.uuid !== 'string').sort((a, b) => canonical(a).localeCompare(canonical(b)));
    assert.deepStrictEqual(rest(exported), rest(source), `${id}: records without a uuid`);
  }
});

/** canonical is JSON with object keys sorted, to order records whatever their key order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
