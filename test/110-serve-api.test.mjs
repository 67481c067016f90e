// `sessionkeep serve`'s JSON API, run as users run it (the real CLI in a child process) on a
// store filled by importing ../shared/fixtures/real: without the token, with a wrong one or a
// wrong Host it answers 403 and no data; it sends no CORS header; every endpoint's answer is
// checked against what the store's own API says of the same sessions; pages put together
// give the whole branch, of any branch; a 20,000-message session's first page comes in under
// a second. The store is only read: nothing in it changes while the viewer is used, and serve
// stopped mid-request answers first and leaves a hosted agent's session as its agent has it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, runNode, storeLocation } from './helpers/common.mjs';
import { FIXTURE, api, fillViewerStore, request, startServe } from './helpers/browser.mjs';
import { CODEX, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

let dir;
let db;
let made;
let server;
let store;
let prices;
const PRICES = { 'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-serve-'));
  db = path.join(dir, 'sessions.db');
  made = await fillViewerStore(db, dir);
  prices = path.join(dir, 'prices.json');
  fs.writeFileSync(prices, JSON.stringify(PRICES));
  server = await startServe(db, ['--prices', prices]);
  store = openStore(db);
});

after(async () => {
  store?.close();
  if (server) {
    const ended = await server.stop();
    assert.equal(ended.code, 0, `serve exited with ${ended.code ?? ended.signal}: ${ended.err}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const bearer = () => ({ Authorization: `Bearer ${server.token}` });

test('serve prints one line: the URL on 127.0.0.1 with a 32-byte token', () => {
  assert.match(server.output(), /^sessionkeep serve: http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}\n$/);
  assert.equal(Buffer.from(server.token, 'base64url').length, 32);
});

test('serve refuses a port in use or out of range (exit 2) and a store that is not there (exit 1)', async () => {
  const cli = path.join(ROOT, 'dist', 'cli', 'main.js');
  const inUse = await runNode(cli, ['serve', '--db', storeLocation(db), '--no-open', '--port', String(server.port)]);
  assert.equal(inUse.code, 2);
  assert.match(inUse.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${server.port}`));
  const tooBig = await runNode(cli, ['serve', '--db', storeLocation(db), '--no-open', '--port', '70000']);
  assert.equal(tooBig.code, 2);
  assert.match(tooBig.stderr, /--port must be at most 65535/);
  const missing = path.join(dir, 'missing.db');
  const none = await runNode(cli, ['serve', '--db', missing, '--no-open']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no store at/);
  assert.ok(!fs.existsSync(missing), 'serve creates no store');
});

test('the API answers 403 without the token, with a wrong one, and to a Host that is not this server', async () => {
  const wrong = server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A');
  const cases = [
    {},
    { Authorization: `Bearer ${wrong}` },
    { Authorization: `Bearer ${server.token}x` },
    { Authorization: server.token },
    { Authorization: `Basic ${server.token}` },
    { ...bearer(), Host: `evil.example:${server.port}` },
    { ...bearer(), Host: `127.0.0.1:${server.port + 1}` },
    { ...bearer(), Host: '127.0.0.1' },
  ];
  for (const headers of cases) {
    for (const p of ['/api/sessions', `/api/sessions/${made.branched}/messages`, '/api/usage', '/api/nothing']) {
      const r = await request(server.port, p, { headers });
      assert.equal(r.status, 403, `${p} with ${JSON.stringify(headers)}`);
      assert.equal(r.json.error.code, 'FORBIDDEN');
      assert.ok(!r.body.includes(made.branched.slice(9)), 'no session data in a refusal');
    }
  }
  // localhost names this server as well as 127.0.0.1 does
  const r = await request(server.port, '/api/projects', { headers: { ...bearer(), Host: `localhost:${server.port}` } });
  assert.equal(r.status, 200);
});

test('no CORS header on any answer; a preflight and every method but GET are refused', async () => {
  const origin = { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' };
  const answers = [
    await request(server.port, '/api/sessions', { headers: { ...bearer(), Origin: 'https://evil.example' } }),
    await request(server.port, '/api/sessions', { method: 'OPTIONS', headers: origin }),
    await request(server.port, '/api/sessions', { method: 'POST', headers: bearer() }),
    await request(server.port, `/api/sessions/${made.branched}`, { method: 'DELETE', headers: bearer() }),
    await request(server.port, '/', {}),
  ];
  assert.deepEqual(answers.map((a) => a.status), [200, 405, 405, 405, answers[4].status]);
  for (const a of answers) {
    assert.deepEqual(Object.keys(a.headers).filter((h) => h.startsWith('access-control-')), []);
  }
  assert.equal(answers[1].json.error.code, 'METHOD_NOT_ALLOWED');
  assert.equal(store.sessionInfo(made.branched).id, made.branched, 'DELETE deleted nothing');
});

test('the page and its assets need no token; nothing outside the viewer\'s folder is served', async () => {
  const index = path.join(ROOT, 'dist', 'viewer', 'index.html');
  const page = await request(server.port, '/');
  if (fs.existsSync(index)) {
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'], /^text\/html/);
    assert.deepEqual(page.body, fs.readFileSync(index));
    assert.match(page.headers['content-security-policy'], /default-src 'self'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
  } else {
    assert.equal(page.status, 503);
    assert.equal(page.json.error.code, 'VIEWER_NOT_BUILT');
  }
  for (const p of ['/assets/../../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/assets/%E0%A4%A', '/package.json', '/assets/']) {
    const r = await request(server.port, p);
    assert.equal(r.status, 404, p);
    assert.equal(r.json.error.code, 'NOT_FOUND');
  }
});

test('/api/sessions lists what listSessions() lists, newest first, in pages that add up to it', async () => {
  const listed = store.listSessions();
  const first = await api(server, '/api/sessions?limit=5');
  assert.equal(first.total, listed.length);
  assert.equal(first.sessions.length, 5);
  const pages = [];
  for (let offset = 0; offset < first.total; offset += 5) {
    const page = await api(server, `/api/sessions?limit=5&offset=${offset}`);
    assert.equal(page.offset, offset);
    pages.push(...page.sessions);
  }
  const byUpdated = [...listed].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  assert.deepEqual(pages.map((s) => s.id), byUpdated.map((s) => s.id));
  const one = pages.find((s) => s.id === made.branched);
  const info = store.sessionInfo(made.branched);
  assert.deepEqual({ ...one, lastAccessedAt: 0 }, { ...info, lastAccessedAt: 0 });
  assert.ok(!pages.some((s) => s.id === made.archived), 'archived sessions are left out by default');
});

test('/api/sessions filters by project, status, archived and date, and sorts', async () => {
  const all = store.listSessions({ includeArchived: true });
  const archived = await api(server, '/api/sessions?archived=1');
  assert.deepEqual(archived.sessions.map((s) => s.id), [made.archived]);

  const project = all.find((s) => s.id.startsWith(FIXTURE.subagents)).projectPath;
  const inProject = await api(server, `/api/sessions?project=${encodeURIComponent(project)}`);
  assert.deepEqual(inProject.sessions.map((s) => s.id).sort(), all.filter((s) => s.projectPath === project && !s.archivedAt).map((s) => s.id).sort());

  const active = await api(server, '/api/sessions?status=active&limit=500');
  assert.equal(active.total, all.filter((s) => s.status === 'active' && !s.archivedAt).length);
  assert.ok(active.sessions.every((s) => s.status === 'active'));

  const day = all.find((s) => s.id.startsWith(FIXTURE.images)).updatedAt;
  const local = new Date(day);
  const ymd = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
  const onDay = await api(server, `/api/sessions?from=${ymd}&to=${ymd}&limit=500`);
  const start = new Date(local.getFullYear(), local.getMonth(), local.getDate());
  const end = new Date(local.getFullYear(), local.getMonth(), local.getDate() + 1);
  const expected = all.filter((s) => !s.archivedAt && new Date(s.updatedAt) >= start && new Date(s.updatedAt) < end);
  assert.ok(expected.length >= 1);
  assert.deepEqual(onDay.sessions.map((s) => s.id).sort(), expected.map((s) => s.id).sort());

  const byMessages = await api(server, '/api/sessions?sort=messages&order=asc&limit=500');
  const counts = byMessages.sessions.map((s) => s.messageCount);
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b));
  const byTitle = await api(server, '/api/sessions?sort=title&limit=500');
  const titles = byTitle.sessions.map((s) => s.title.toLowerCase());
  assert.deepEqual(titles, [...titles].sort((a, b) => a.localeCompare(b)));
});

test('bad parameters are refused with INVALID_ARGUMENT and unknown ids and routes with 404', async () => {
  for (const q of ['limit=ten', 'limit=100000', 'offset=-1', 'sort=size', 'order=up', 'status=gone', 'archived=yes', 'from=2026-02-30', 'to=yesterday']) {
    const r = await request(server.port, `/api/sessions?${q}`, { headers: bearer() });
    assert.equal(r.status, 400, q);
    assert.equal(r.json.error.code, 'INVALID_ARGUMENT', q);
  }
  const unknown = await request(server.port, '/api/sessions/ffffffff-0000/messages', { headers: bearer() });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.error.code, 'SESSION_NOT_FOUND');
  const leaf = await request(server.port, `/api/sessions/${made.branched}/messages?leaf=nope`, { headers: bearer() });
  assert.equal(leaf.status, 404);
  assert.equal(leaf.json.error.code, 'MESSAGE_NOT_FOUND');
  const route = await request(server.port, '/api/sessions/x/y/z', { headers: bearer() });
  assert.equal(route.status, 404);
  assert.equal(route.json.error.code, 'NOT_FOUND');
});

test('search: the sessions with hits, each hit marked in its snippet and placed on its branch', async () => {
  const found = await api(server, '/api/sessions?q=haiku');
  assert.ok(found.total >= 1);
  const row = found.sessions.find((s) => s.id === made.branched);
  assert.ok(row, 'the branched session has "haiku" in its prompt');
  const envelopes = store.openSession(made.branched).envelopes();
  for (const s of found.sessions) {
    assert.ok(s.hits.length >= 1);
    for (const h of s.hits) {
      assert.match(h.snippet, /\u0001haiku\u0002/i);
      assert.ok(['user', 'assistant'].includes(h.role));
    }
  }
  const hit = row.hits.find((h) => h.uuid === made.prompt);
  assert.equal(envelopes[hit.seq].uuid, hit.uuid);

  const expectedIds = new Set(store.search('fixtures', { limit: 1000 }).map((h) => h.sessionId));
  const fixtures = await api(server, '/api/sessions?q=fixtures&limit=500');
  assert.deepEqual(new Set(fixtures.sessions.map((s) => s.id)), new Set([...expectedIds].filter((id) => id !== made.archived)));
  const none = await api(server, '/api/sessions?q=zyxwvutsrq');
  assert.deepEqual(none, { total: 0, offset: 0, limit: 50, sessions: [] });
});

test('/api/projects counts every session of each project', async () => {
  const { projects } = await api(server, '/api/projects');
  const all = store.listSessions({ includeArchived: true });
  const counts = {};
  for (const s of all) counts[s.projectPath] = (counts[s.projectPath] ?? 0) + 1;
  assert.deepEqual(Object.fromEntries(projects.map((p) => [p.path, p.sessions])), counts);
});

test('/api/sessions/:id holds details(), the branches, fileSnapshots() and /debug context\'s report of the next call, by id or prefix', async () => {
  for (const id of [made.branched, made.snapped, store.sessionInfo(FIXTURE.subagents).id]) {
    const s = store.openSession(id);
    const answer = await api(server, `/api/sessions/${id.slice(0, 13)}`);
    assert.deepEqual(Object.keys(answer), ['info', 'branches', 'snapshots', 'context'], 'no tree: the branches are listed instead');
    assert.deepEqual({ ...answer.info, lastAccessedAt: 0 }, { ...s.details({ prices: PRICES }), lastAccessedAt: 0 });
    const tree = s.tree();
    assert.equal(answer.branches[0].leaf, tree.head, 'the head\'s branch first');
    assert.equal(answer.branches[0].records, s.envelopes().length);
    assert.deepEqual(answer.snapshots, s.fileSnapshots());
    const contextWindow = store.sessionInfo(id).contextWindow || 200_000;
    const next = s.buildContext({ contextWindow }).debug;
    assert.ok(next.sentMessageCount > 0, 'the report is of a context with messages');
    const timeless = ({ builtAt, durationMs, text, ...rest }) => ({ ...rest, text: text.replace(/Built in .*$/m, '') });
    assert.deepEqual(timeless(answer.context), timeless(next));
    s.close();
  }
});

test('the branches: the head\'s, then one for each leaf off its branch, each with its fork, preview and time', async () => {
  const { branches } = await api(server, `/api/sessions/${made.branched}`);
  const tree = store.openSession(made.branched).tree();
  const node = (uuid) => tree.nodes.find((n) => n.uuid === uuid);
  assert.deepEqual(branches, [
    { leaf: made.secondAnswer, records: 2, preview: 'Spring rain falls softly on the grey waves', at: node(made.secondAnswer).timestamp },
    { leaf: made.firstAnswer, records: 1, forkUuid: made.prompt, forkPreview: 'Write a haiku about the sea', preview: 'Autumn moon rises over the quiet harbour', at: node(made.firstAnswer).timestamp },
  ]);
});

test('the branches of every imported session: no subagent or parallel-tool-call fork listed, each one viewable', async () => {
  let offHead = 0;
  for (const info of store.listSessions()) {
    const s = store.openSession(info.id);
    const tree = s.tree();
    s.close();
    const { branches, context } = await api(server, `/api/sessions/${info.id}`);
    if (tree.head === null) assert.deepEqual([branches, context], [[], null], `${info.title}: no message, no branch and no context`);
    const byUuid = new Map(tree.nodes.map((n) => [n.uuid, n]));
    // a leaf off the head's branch: no record after it but a subagent's
    const leaves = tree.nodes.filter((n) => !n.onBranch && !n.isSidechain && n.children.every((c) => byUuid.get(c)?.isSidechain));
    assert.deepEqual(branches.slice(1).map((b) => b.leaf).sort(), leaves.map((n) => n.uuid).sort(), info.title);
    for (const b of branches.slice(1)) {
      const fork = b.forkUuid && byUuid.get(b.forkUuid);
      if (b.forkUuid) assert.ok(fork?.onBranch, `${info.title}: a branch forks from the head's branch`);
      const page = await api(server, `/api/sessions/${info.id}/messages?leaf=${b.leaf}&limit=1000`);
      assert.equal(page.envelopes.filter((e) => !e.isSidechain).at(-1)?.uuid, b.leaf, `${info.title}: the branch ends at its leaf`);
      offHead++;
    }
  }
  assert.ok(offHead > 0, 'the fixtures hold branches off the head');
});

test('messages: pages of every imported session add up to envelopes(), and leaf=<head> gives the same branch', async () => {
  for (const info of store.listSessions()) {
    const s = store.openSession(info.id);
    const expected = s.envelopes();
    const head = s.tree().head;
    s.close();
    const got = [];
    let total;
    for (let offset = 0; total === undefined || offset < total; offset += 40) {
      const page = await api(server, `/api/sessions/${info.id}/messages?offset=${offset}&limit=40`);
      total = page.total;
      got.push(...page.envelopes);
    }
    assert.equal(total, expected.length, info.title);
    assert.deepEqual(got, expected, info.title);
    if (head) {
      // the branch cut from the tree and the export, as another branch is, matches the store's own
      const viaLeaf = await api(server, `/api/sessions/${info.id}/messages?leaf=${head}&limit=1000`);
      assert.deepEqual(viaLeaf.envelopes.map((e) => e.uuid), expected.map((e) => e.uuid), `${info.title}: branch at the head`);
    }
  }
});

test('messages: leaf= reads the other branch without rewinding to it', async () => {
  const current = await api(server, `/api/sessions/${made.branched}/messages`);
  assert.deepEqual(current.envelopes.map((e) => e.uuid), [made.prompt, made.secondAnswer]);
  const other = await api(server, `/api/sessions/${made.branched}/messages?leaf=${made.firstAnswer}`);
  assert.deepEqual(other.envelopes.map((e) => e.uuid), [made.prompt, made.firstAnswer]);
  assert.equal(other.envelopes[1].message.content[0].text, 'Autumn moon rises over the quiet harbour');
  const s = store.openSession(made.branched);
  assert.equal(s.tree().head, made.secondAnswer, 'the head has not moved');
  s.close();
});

test('a snapshot\'s files: text as UTF-8, other bytes as base64, a missing file as null', async () => {
  const base = `/api/sessions/${made.snapped}/snapshots/${made.snapshot.id}/file?path=`;
  assert.deepEqual(await api(server, base + 'notes.txt'), { path: 'notes.txt', content: 'port 8080\nhost 127.0.0.1\n', encoding: 'utf8', state: 'present' });
  const bin = await api(server, base + 'logo.bin');
  assert.equal(bin.encoding, 'base64');
  assert.deepEqual(Buffer.from(bin.content, 'base64'), fs.readFileSync(path.join(made.files, 'logo.bin')));
  assert.deepEqual(await api(server, base + 'gone.txt'), { path: 'gone.txt', content: null, encoding: 'utf8', state: 'deleted' });
  const untracked = await request(server.port, base + 'other.txt', { headers: bearer() });
  assert.equal(untracked.status, 404);
  assert.equal(untracked.json.error.code, 'FILE_NOT_FOUND');
  const noPath = await request(server.port, base, { headers: bearer() });
  assert.equal(noPath.status, 400);
  assert.equal(noPath.json.error.code, 'INVALID_ARGUMENT');
  const noSnapshot = await request(server.port, `/api/sessions/${made.snapped}/snapshots/nope/file?path=notes.txt`, { headers: bearer() });
  assert.equal(noSnapshot.status, 404);
  assert.equal(noSnapshot.json.error.code, 'SNAPSHOT_NOT_FOUND');
});

test('a file an imported snapshot tracks without its backup is shown present, without content', async () => {
  let found;
  for (const { id } of store.listSessions({ includeArchived: true, fields: ['id'] })) {
    const s = store.openSession(id);
    for (const snap of s.fileSnapshots()) {
      const file = snap.files.find((f) => f.state === 'present' && !f.backedUp);
      if (file && !found) found = { id, snapshot: snap.id, path: file.path };
    }
    s.close();
  }
  assert.ok(found, 'a real Claude Code transcript imported without its file-history backups');
  const answer = await api(server, `/api/sessions/${found.id}/snapshots/${found.snapshot}/file?path=${encodeURIComponent(found.path)}`);
  assert.deepEqual(answer, { path: found.path, content: null, encoding: 'utf8', state: 'present' });
});

test('context usage: each turn\'s last request against the session\'s window', async () => {
  const usage = await api(server, `/api/sessions/${made.branched}/context-usage`);
  // on the current branch, the second answer's request only
  assert.deepEqual(usage, {
    contextWindow: 100_000,
    contextWindowKnown: true,
    turns: [{ turn: 0, inputTokens: 140, cacheReadTokens: 1000, cacheCreationTokens: 0, outputTokens: 12, contextTokens: 1140 }],
  });
  const imported = await api(server, `/api/sessions/${FIXTURE.subagents}/context-usage`);
  assert.equal(imported.contextWindowKnown, false);
  assert.ok(imported.turns.length >= 2);
  const s = store.findSession(FIXTURE.subagents);
  const last = s.envelopes().filter((e) => !e.isSidechain && e.message?.usage).at(-1);
  s.close();
  const u = last.message.usage;
  assert.equal(imported.turns.at(-1).contextTokens, u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0));
});

test('context usage of a Codex session: from its rollout\'s token_count events, against the window Codex reports', async () => {
  for (const file of jsonlFiles(CODEX)) {
    const values = readRecords(file).records.map((r) => r.value);
    const id = values.find((v) => v.type === 'session_meta').payload.id;
    const counts = values.filter((v) => v.type === 'event_msg' && v.payload?.type === 'token_count' && v.payload.info);
    const usage = await api(server, `/api/sessions/${id}/context-usage`);
    assert.ok(usage.turns.length >= 1, `${path.basename(file)}: no turn with usage`);
    assert.equal(usage.contextWindow, counts.at(-1).payload.info.model_context_window);
    assert.equal(usage.contextWindowKnown, true);
    const last = counts.at(-1).payload.info.last_token_usage;
    assert.deepEqual(usage.turns.at(-1), {
      turn: usage.turns.at(-1).turn,
      inputTokens: last.input_tokens - last.cached_input_tokens,
      cacheReadTokens: last.cached_input_tokens,
      cacheCreationTokens: 0,
      outputTokens: last.output_tokens,
      contextTokens: last.input_tokens,
    });
  }
});

test('usage by day, model and project sums what stats() sums, priced where there is a price', async () => {
  const usage = await api(server, '/api/usage');
  const stats = store.stats();
  const sum = (rows, k) => rows.reduce((n, r) => n + r[k], 0);
  for (const rows of [usage.byDay, usage.byModel]) {
    assert.equal(sum(rows, 'inputTokens'), stats.totals.inputTokens);
    assert.equal(sum(rows, 'outputTokens'), stats.totals.outputTokens);
    assert.equal(sum(rows, 'cacheReadTokens'), stats.totals.cacheReadInputTokens);
    assert.equal(sum(rows, 'cacheCreationTokens'), stats.totals.cacheCreationInputTokens);
  }
  assert.equal(new Set(usage.byModel.map((r) => r.model)).size, usage.byModel.length);
  const priced = store.stats({ prices: PRICES });
  assert.deepEqual(usage.byDay.map((r) => r.costUsd), priced.days.map((r) => r.cost ?? null));
  assert.ok(usage.byDay.some((r) => r.costUsd > 0), 'the priced model has a cost');
  for (const r of usage.byModel) {
    assert.equal(r.costUsd === null, (priced.unpricedModels ?? []).includes(r.model), `${r.model}: a cost exactly when it has a price`);
  }
  assert.deepEqual(usage.unpricedModels, priced.unpricedModels ?? []);
  // By 5-hour window: every request in one window, windows in order, each 5 hours from the hour.
  assert.equal(sum(usage.byBlock, 'requests'), stats.totals.requests);
  assert.equal(sum(usage.byBlock, 'outputTokens'), stats.totals.outputTokens);
  for (const [i, b] of usage.byBlock.entries()) {
    assert.equal(Date.parse(b.end) - Date.parse(b.start), 5 * 3600_000);
    if (i > 0) assert.ok(Date.parse(b.start) >= Date.parse(usage.byBlock[i - 1].lastAt), 'windows do not overlap');
  }
  for (const p of usage.byProject) {
    assert.equal(p.inputTokens, store.stats({ projectPath: p.project }).totals.inputTokens, p.project);
  }
  assert.ok(usage.byProject.some((p) => p.project === '/work/haiku'));

  const day = usage.byDay[0].day;
  const oneDay = await api(server, `/api/usage?from=${day}&to=${day}`);
  assert.deepEqual([...new Set(oneDay.byDay.map((r) => r.day))], [day]);
  assert.deepEqual(oneDay.byDay, usage.byDay.filter((r) => r.day === day));
});

test('the viewer writes nothing: every session\'s messages are as before', async () => {
  const before = store.listSessions({ includeArchived: true }).map((s) => [s.id, s.updatedAt, s.messageCount, s.status, s.title]);
  await api(server, `/api/sessions/${made.branched}`);
  await api(server, `/api/sessions/${made.branched}/messages?leaf=${made.firstAnswer}`);
  await api(server, `/api/sessions/${made.snapped}/snapshots/${made.snapshot.id}/file?path=notes.txt`);
  const after = store.listSessions({ includeArchived: true }).map((s) => [s.id, s.updatedAt, s.messageCount, s.status, s.title]);
  assert.deepEqual(after, before);
});

test('a rewind that moves no token is seen: the messages, the branches and the hits follow the head', async () => {
  const s = store.createSession({ projectPath: '/work/rewound', title: 'Rewound without tokens' });
  const prompt = s.appendUserMessage('Name a colour');
  const reply = (text) => {
    s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text });
    s.ingest({ type: 'done', stopReason: 'end_turn' }); // no usage: both branches hold the same tokens
  };
  reply('Vermilion');
  const first = (await s.lastEnvelope()).uuid;
  await s.rewind(prompt.uuid);
  reply('Turquoise');
  await s.flush();
  const second = (await s.lastEnvelope()).uuid;
  const texts = async () => (await api(server, `/api/sessions/${s.id}/messages`)).envelopes.map((e) => e.message.content[0].text);
  const seq = async () => (await api(server, '/api/sessions?q=turquoise')).sessions.find((r) => r.id === s.id).hits[0].seq;
  assert.deepEqual(await texts(), ['Name a colour', 'Turquoise']);
  assert.equal((await api(server, `/api/sessions/${s.id}`)).branches[0].leaf, second);
  assert.equal(await seq(), 1);

  // Only the listing's updatedAt tells serve's caches of the rewind (they do not open the
  // session to read its head): if a rewind stops stamping it, the head must join the stamp.
  const before = store.sessionInfo(s.id);
  await s.rewind(first);
  const after = store.sessionInfo(s.id);
  assert.deepEqual([after.messageCount, after.tokens], [before.messageCount, before.tokens], 'nothing else in the listing moved');
  assert.ok(after.updatedAt > before.updatedAt, 'the rewind stamped updatedAt');
  assert.deepEqual(await texts(), ['Name a colour', 'Vermilion']);
  assert.deepEqual((await api(server, `/api/sessions/${s.id}`)).branches.map((b) => b.leaf), [first, second]);
  assert.equal(await seq(), -1, 'the hit is on another branch now');
  s.close();
  store.deleteSession(s.id);
});

/**
 * writerScript is a writer in another process: `open` opens (and may fill) a session `s`,
 * which then gets a prompt and half a reply; on a line of stdin it gets the rest, then `after`
 * runs and the store closes.
 */
function writerScript(open, after = '') {
  return `
const { openStore } = require(process.argv[1]);
const store = openStore(process.argv[2]);
${open}
s.appendUserMessage('Count to three');
s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
s.ingest({ type: 'text', text: 'one, two' });
s.flush().then(() => console.log(s.id));
process.stdin.once('data', async () => {
  s.ingest({ type: 'text', text: ', three' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  await s.flush();
  ${after}
  store.close();
});`;
}

/** spawnWriter runs a writerScript on the store at `db` in a child process of this checkout's package. */
function spawnWriter(script, db) {
  return spawn(process.execPath, ['-e', script, path.join(ROOT, 'dist', 'index.js'), storeLocation(db)], { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** A writer in another process: a prompt and half a reply, then, on a line of stdin, the rest. */
const LIVE_WRITER = writerScript(`const s = store.createSession({ projectPath: '/work/live', title: 'Streaming while viewed' });`);

test('a session streaming in another process is shown as far as it has come, and left streaming', async () => {
  const writer = spawnWriter(LIVE_WRITER, db);
  const ended = new Promise((r) => writer.on('exit', r));
  const id = await new Promise((resolve) => writer.stdout.setEncoding('utf8').once('data', (d) => resolve(d.trim())));
  const page = await api(server, `/api/sessions/${id}/messages`);
  assert.deepEqual(page.envelopes.map((e) => [e.status, e.message.content[0].text]), [['complete', 'Count to three'], ['streaming', 'one, two']]);
  await api(server, `/api/sessions/${id}`);
  writer.stdin.end('go\n');
  assert.equal(await ended, 0);
  const after = await api(server, `/api/sessions/${id}/messages`);
  assert.deepEqual(after.envelopes.map((e) => [e.status, e.message.content[0].text]), [['complete', 'Count to three'], ['complete', 'one, two, three']]);
});

/**
 * A hosted agent in another process: a keyed session of 24,000 messages and a reply half
 * streamed; on a line of stdin it finishes the reply and prints the session's status.
 */
const KEYED_WRITER = writerScript(`
const s = store.sessionByKey('acme:slack:alice', { create: true, title: 'A hosted agent' });
const messages = [];
for (let i = 0; i < 12000; i++) {
  messages.push({ role: 'user', content: [{ type: 'text', text: 'Step ' + i + ': check the build and say what failed' }] });
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Step ' + i + ' passes.' }] });
}
s.restoreMessages(messages);
store.search('passes'); // indexed now, so that this process's indexing does not compete with serve's read`, 'console.log(store.sessionInfo(s.id).status);');

test('serve stopped while it reads a hosted agent\'s session answers first, and leaves the session as its agent has it', async (t) => {
  const keyedDb = path.join(dir, 'keyed.db');
  const writer = spawnWriter(KEYED_WRITER, keyedDb);
  t.after(() => writer.kill());
  const lines = writer.stdout.setEncoding('utf8')[Symbol.asyncIterator]();
  const id = (await lines.next()).value.trim();
  const look = openStore(keyedDb);
  t.after(() => look.close());
  const accessed = look.sessionInfo(id).lastAccessedAt;

  const viewer = await startServe(keyedDb);
  const started = performance.now();
  const reading = request(viewer.port, `/api/sessions/${id}/messages`, { headers: { Authorization: `Bearer ${viewer.token}` } })
    .then((r) => ({ ...r, at: performance.now() }), (err) => ({ err, at: performance.now() }));
  // serve records the access when it opens the session: from then on the request holds it
  while (look.sessionInfo(id).lastAccessedAt === accessed) await new Promise((r) => setTimeout(r, 2));
  const signalled = performance.now();
  const ended = await viewer.stop();
  const answer = await reading;
  t.diagnostic(`the request ran ${(answer.at - started).toFixed(0)} ms, serve was stopped after ${(signalled - started).toFixed(0)} ms`);
  assert.equal(ended.code, 0, ended.err);
  assert.ok(answer.at > signalled, 'the request ended before serve was stopped: the session must be bigger for this test to mean anything');
  assert.equal(look.sessionInfo(id).status, 'active', 'the hosted agent\'s session was marked interrupted by the viewer');
  assert.equal(answer.err, undefined, `the request under way was cut off: ${answer.err?.message}`);
  assert.equal(answer.status, 200);
  assert.equal(answer.json.total, 24_002);

  writer.stdin.end('go\n');
  assert.equal((await lines.next()).value.trim(), 'active');
});

test('a 20,000-message session opens at its first page in under a second', async (t) => {
  const bigDb = path.join(dir, 'big.db');
  const bigStore = openStore(bigDb);
  const s = bigStore.createSession({ projectPath: '/work/big', title: 'Twenty thousand messages' });
  const messages = [];
  for (let i = 0; i < 5000; i++) {
    messages.push({ role: 'user', content: [{ type: 'text', text: `Step ${i}: run the tests and fix what fails` }] });
    messages.push({ role: 'assistant', model: 'claude-sonnet-4-5', usage: { input_tokens: 100 + i, output_tokens: 50 }, content: [{ type: 'text', text: 'Running them.' }, { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `npm test -- ${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `ok ${i} `.repeat(60) }] });
    messages.push({ role: 'assistant', model: 'claude-sonnet-4-5', usage: { input_tokens: 200 + i, output_tokens: 80 }, content: [{ type: 'text', text: `Step ${i} passes.` }] });
  }
  s.restoreMessages(messages);
  await s.flush();
  const id = s.id;
  bigStore.close();
  // the first page alone, from a cold server: what the issue asks to be under a second
  const big = await startServe(bigDb);
  t.after(() => big.stop());
  let started = performance.now();
  const first = await api(big, `/api/sessions/${id}/messages`);
  const firstPageMs = performance.now() - started;
  assert.equal(first.total, 20_000);
  assert.equal(first.envelopes.length, 200);
  assert.equal(first.envelopes[0].message.content[0].text, 'Step 0: run the tests and fix what fails');

  // as the page opens it: the details and the first page at once, cold
  const cold = await startServe(bigDb);
  t.after(() => cold.stop());
  started = performance.now();
  const [answer] = await Promise.all([
    request(cold.port, `/api/sessions/${id}`, { headers: { Authorization: `Bearer ${cold.token}` } }),
    api(cold, `/api/sessions/${id}/messages`),
  ]);
  const openMs = performance.now() - started;
  const details = answer.json;
  assert.equal(details.info.messageCount, 20_000);
  // the branches, not the tree of 20,000 records (7.2 MB) they are found in
  assert.deepEqual(details.branches.map((b) => b.records), [20_000]);
  assert.ok(answer.body.length < 100_000, `the details are ${answer.body.length} bytes`);

  const again = performance.now();
  const page = await api(big, `/api/sessions/${id}/messages?offset=19900&limit=200`);
  const nextPageMs = performance.now() - again;
  assert.equal(page.envelopes.length, 100);
  assert.equal(page.envelopes.at(-1).message.content[0].text, 'Step 4999 passes.');
  assert.equal(details.branches[0].leaf, page.envelopes.at(-1).uuid, 'the one branch ends at the head');
  const usage = await api(big, `/api/sessions/${id}/context-usage`);
  assert.equal(usage.turns.length, 5000);
  assert.equal(usage.turns[4999].contextTokens, 200 + 4999);
  t.diagnostic(`20,000 messages: first page ${firstPageMs.toFixed(0)} ms; with the details (${answer.body.length} bytes) at once ${openMs.toFixed(0)} ms; a later page ${nextPageMs.toFixed(0)} ms`);
  assert.ok(firstPageMs < 1000, `the first page took ${firstPageMs.toFixed(0)} ms`);
});
