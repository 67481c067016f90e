// SessionkeepSessionStore, the Claude Agent SDK's SessionStore over a sessionkeep store: the
// contract its type's comments state, then the SDK's own functions (importSessionToStore,
// getSessionMessages, listSessions) on real Claude Code transcripts from
// ../shared/fixtures/real, compared with the SDK's InMemorySessionStore fed the same import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HELPERS, openStore, tempDir, tempStore } from './helpers/common.mjs';

const ROOT = path.join(HELPERS, '..', '..');
const { SessionkeepSessionStore } = await import(path.join(ROOT, 'dist', 'claude-agent-sdk.js'));
const sdk = await import('@anthropic-ai/claude-agent-sdk');
const REAL = path.join(ROOT, '..', 'shared', 'fixtures', 'real', 'claude_code');

const P = '-home-dev-app';
const SID = '0b6c1a52-3f0e-4d7c-9a41-5b8f3e2d1c00';
const line = (uuid, parentUuid, type, content, more = {}) => ({
  type, uuid, parentUuid, sessionId: SID, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/home/dev/app', isSidechain: false,
  message: { role: type, content }, ...more,
});
const main = [
  line('u1', null, 'user', 'list the files'),
  { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: SID, timestamp: '2026-03-01T10:00:01.000Z', cwd: '/home/dev/app', isSidechain: false,
    message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Task', input: { prompt: 'look' } }],
      stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } } },
  { type: 'custom-title', customTitle: 'Files', sessionId: SID }, // no uuid
  { type: 'never-seen-before', uuid: 'x1', payload: { nested: [1, 'two', { three: null }] } },
];
const sub = [
  line('s1', null, 'user', 'look', { isSidechain: true, agentId: 'a9' }),
  { type: 'assistant', uuid: 's2', parentUuid: 's1', sessionId: SID, timestamp: '2026-03-01T10:00:02.000Z', isSidechain: true, agentId: 'a9',
    message: { id: 'msg_2', role: 'assistant', content: [{ type: 'text', text: 'two files' }], usage: { input_tokens: 3, output_tokens: 2 } } },
];

test('append and load: every line deep-equal in append order, uuid idempotent, subpaths apart, projects never mixed', async (t) => {
  const { store } = tempStore(t);
  const ss = new SessionkeepSessionStore(store);
  const key = { projectKey: P, sessionId: SID };
  const subKey = { ...key, subpath: 'subagents/agent-a9' };
  assert.equal(await ss.load(key), null, 'a key never written');

  await ss.append(key, main.slice(0, 2));
  await ss.append(subKey, sub);
  await ss.append(key, main.slice(2));
  await ss.append(key, main.slice(0, 2)); // the SDK's retry of a batch
  assert.deepEqual(await ss.load(key), main);
  assert.deepEqual(await ss.load(subKey), sub);
  assert.equal(await ss.load({ ...key, subpath: 'subagents/agent-zz' }), null);
  assert.deepEqual(await ss.listSubkeys(key), ['subagents/agent-a9']);

  const other = { projectKey: '-home-dev-other', sessionId: SID };
  assert.equal(await ss.load(other), null, 'the same session id under another projectKey is another key');
  await ss.append(other, [main[0]]);
  assert.deepEqual(await ss.load(other), [main[0]]);
  assert.deepEqual(await ss.load(key), main);

  const listed = await ss.listSessions(P);
  assert.deepEqual(listed.map((s) => s.sessionId), [SID], 'one session, its subagent not listed');
  assert.ok(Number.isInteger(listed[0].mtime));
  assert.deepEqual((await ss.listSessions('-home-dev-other')).map((s) => s.sessionId), [SID]);
  assert.deepEqual(await ss.listSessions('-nowhere'), []);

  // The transcript is a sessionkeep session, as an import makes it.
  const s = store.openSession(ss.sessionId(key));
  t.after(() => s.close());
  assert.equal(s.sdkSessionId, SID);
  assert.equal(s.details().projectPath, P);
  const envs = s.envelopes();
  assert.deepEqual(envs.filter((e) => e.isSidechain).map((e) => e.uuid), ['s1', 's2'], 'the subagent as a sidechain');
  assert.equal(s.messages().find((m) => m.role === 'assistant').content[0].name, 'Task');
  assert.ok(s.tokenTracker().outputTokens >= 5);
  assert.equal(store.search('two files').some((h) => h.sessionId === s.id), true, 'found by search');
  assert.notEqual(ss.sessionId(key), ss.sessionId(other));
});

test('a summary per session folded by the SDK, stamped with listSessions() mtime; delete cascades to the subkeys', async (t) => {
  const { db, store } = tempStore(t);
  const ss = new SessionkeepSessionStore(store);
  const key = { projectKey: P, sessionId: SID };
  await ss.append(key, main.slice(0, 1));
  await ss.append(key, main.slice(1));
  await ss.append({ ...key, subpath: 'subagents/agent-a9' }, sub);
  const summaries = await ss.listSessionSummaries(P);
  const mem = new sdk.InMemorySessionStore();
  await mem.append(key, main.slice(0, 1));
  await mem.append(key, main.slice(1));
  const [expected] = await mem.listSessionSummaries(P);
  assert.equal(summaries.length, 1);
  assert.deepEqual(summaries[0].data, expected.data, 'folded as the SDK folds it');
  assert.equal(summaries[0].mtime, (await ss.listSessions(P))[0].mtime);

  // Another process, with no summaries in memory, folds from what is stored.
  const again = openStore(db);
  t.after(() => again.close());
  const fresh = await new SessionkeepSessionStore(again).listSessionSummaries(P);
  assert.deepEqual(fresh, summaries);

  await assert.rejects(ss.delete({ ...key, subpath: 'subagents/agent-a9' }), { code: 'INVALID_ARGUMENT' });
  await ss.delete(key);
  assert.equal(await ss.load(key), null);
  assert.equal(await ss.load({ ...key, subpath: 'subagents/agent-a9' }), null);
  assert.deepEqual(await ss.listSubkeys(key), []);
  assert.deepEqual(await ss.listSessions(P), []);
  assert.deepEqual(await ss.listSessionSummaries(P), []);
  await ss.delete(key); // nothing left to delete
});

test('bad keys and entries are refused with a code and nothing is stored; an unreadable message is kept verbatim', async (t) => {
  const { store } = tempStore(t);
  const ss = new SessionkeepSessionStore(store);
  const key = { projectKey: P, sessionId: SID };
  await assert.rejects(ss.append({ projectKey: P }, main), { code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(ss.append({ ...key, subpath: '' }, main), { code: 'ERR_INVALID_ARG_TYPE' });
  await assert.rejects(ss.append(key, [main[0], { uuid: 'no-type' }]), { code: 'INVALID_ARGUMENT' });
  assert.equal(await ss.load(key), null);
  assert.throws(() => new SessionkeepSessionStore({}), { code: 'ERR_INVALID_ARG_TYPE' });

  // A line whose message sessionkeep cannot read (a tool_use without an id) is kept verbatim all the same.
  const unreadable = { type: 'assistant', uuid: 'bad-1', sessionId: SID, message: { role: 'assistant', content: [{ type: 'tool_use', name: 'no id' }] } };
  await ss.append(key, [main[0], unreadable]);
  assert.deepEqual(await ss.load(key), [main[0], unreadable]);
});

test('append runs off the JS thread: timers run while a large batch is stored', async (t) => {
  const { store } = tempStore(t);
  const ss = new SessionkeepSessionStore(store);
  const key = { projectKey: P, sessionId: SID };
  const batch = Array.from({ length: 3000 }, (_, i) => line(`big-${i}`, i ? `big-${i - 1}` : null, 'user', `line ${i} ${'x'.repeat(200)}`));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const started = performance.now();
  const pending = ss.append(key, batch);
  const callMs = performance.now() - started;
  await pending;
  clearInterval(timer);
  assert.ok(ticks > 0, 'the event loop turned while the batch was stored');
  assert.ok(callMs < 200, `append() returned after ${callMs.toFixed(1)} ms`);
  assert.equal((await ss.load(key)).length, 3000);
});

/** realSessions lays the real main transcripts (with their subagents) out as Claude Code does under configDir. */
function realSessions(configDir, projectDir) {
  const projects = path.join(configDir, 'projects', projectDir.replace(/[^a-zA-Z0-9]/g, '-'));
  fs.mkdirSync(projects, { recursive: true });
  const ids = [];
  for (const f of fs.readdirSync(REAL)) {
    const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:__subagents__(agent-[\w-]+))?\.jsonl$/.exec(f);
    if (!m) continue;
    if (m[2]) {
      fs.mkdirSync(path.join(projects, m[1], 'subagents'), { recursive: true });
      fs.copyFileSync(path.join(REAL, f), path.join(projects, m[1], 'subagents', `${m[2]}.jsonl`));
    } else {
      fs.copyFileSync(path.join(REAL, f), path.join(projects, `${m[1]}.jsonl`));
      ids.push(m[1]);
    }
  }
  return ids.sort();
}

test("the SDK's importSessionToStore, getSessionMessages and listSessions on real transcripts read as from InMemorySessionStore", async (t) => {
  const configDir = tempDir(t, 'sessionkeep-claude-config-');
  const projectDir = tempDir(t, 'sessionkeep-project-');
  const saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = configDir;
  t.after(() => (saved === undefined ? delete process.env.CLAUDE_CONFIG_DIR : (process.env.CLAUDE_CONFIG_DIR = saved)));
  const ids = realSessions(configDir, projectDir);
  assert.ok(ids.length >= 3, `real transcripts found: ${ids.length}`);

  const { store } = tempStore(t);
  const ss = new SessionkeepSessionStore(store);
  const mem = new sdk.InMemorySessionStore();
  for (const id of ids) {
    await sdk.importSessionToStore(id, ss, { dir: projectDir, batchSize: 50 });
    await sdk.importSessionToStore(id, mem, { dir: projectDir, batchSize: 50 });
  }
  const projectKey = (await mem.listSessions(projectDir.replace(/[^a-zA-Z0-9]/g, '-'))).length > 0 ? projectDir.replace(/[^a-zA-Z0-9]/g, '-') : undefined;
  assert.ok(projectKey, 'the SDK keyed the import by the sanitized project folder');
  let subagents = 0;
  for (const id of ids) {
    const key = { projectKey, sessionId: id };
    assert.deepEqual(await ss.load(key), await mem.load(key), `${id}: every line`);
    const subkeys = (await mem.listSubkeys(key)).sort();
    assert.deepEqual(await ss.listSubkeys(key), subkeys);
    for (const subpath of subkeys) assert.deepEqual(await ss.load({ ...key, subpath }), await mem.load({ ...key, subpath }), `${id}/${subpath}`);
    subagents += subkeys.length;
    const opts = { dir: projectDir, includeSystemMessages: true };
    assert.deepEqual(await sdk.getSessionMessages(id, { ...opts, sessionStore: ss }), await sdk.getSessionMessages(id, { ...opts, sessionStore: mem }));
  }
  assert.ok(subagents >= 4, `subagent transcripts imported: ${subagents}`);

  const strip = (list) => list.map(({ lastModified, ...rest }) => rest).sort((a, b) => a.sessionId.localeCompare(b.sessionId));
  const ours = await sdk.listSessions({ dir: projectDir, sessionStore: ss });
  assert.equal(ours.length, ids.length);
  assert.deepEqual(strip(ours), strip(await sdk.listSessions({ dir: projectDir, sessionStore: mem })));

  // A second import adds nothing.
  const before = await ss.load({ projectKey, sessionId: ids[0] });
  await sdk.importSessionToStore(ids[0], ss, { dir: projectDir });
  assert.deepEqual(await ss.load({ projectKey, sessionId: ids[0] }), before);
});
