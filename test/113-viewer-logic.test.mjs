// The viewer's logic without a browser: the modules are bundled with esbuild at test time
// into the test's temporary folder and imported. arrange() pairs tool results with their calls
// and nests a subagent's records under the call that ran it (or leaves them as orphans when
// the call is not loaded); branchList() (the server's) lists the head's branch and the leaves
// off it, never a subagent or a parallel-tool-call fork; changedFiles() compares two file
// snapshots; splitMarks() cuts a search snippet into text and marked parts, as text only.
// Inputs come from the real fixtures imported into a temporary store, plus hand-made edge cases.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { openStore } from './helpers/common.mjs';
import { FIXTURE, fillViewerStore } from './helpers/browser.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

let dir;
let store;
let made;
let logic;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-viewer-logic-'));
  const outfile = path.join(dir, 'viewer-logic.mjs');
  await build({
    stdin: {
      contents: [
        "export { arrange, groupOrphanChains, onlyPairedResults } from './ts/viewer/conversation';",
        "export { branchList } from './ts/serve/branch-list';",
        "export { changedFiles } from './ts/viewer/components/SnapshotDiff';",
        "export { splitMarks } from './ts/viewer/components/Marked';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
  logic = await import(pathToFileURL(outfile).href);
  const db = path.join(dir, 'sessions.db');
  made = await fillViewerStore(db, dir);
  store = openStore(db);
});

after(() => {
  store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const toolUses = (e) => (Array.isArray(e.message?.content) ? e.message.content : []).filter((b) => b.type === 'tool_use');
const toolResults = (e) => (Array.isArray(e.message?.content) ? e.message.content : []).filter((b) => b.type === 'tool_result');
const envelopesOf = (id) => {
  const s = store.openSession(id);
  try {
    return s.envelopes();
  } finally {
    s.close();
  }
};

test('arrange: a real session with subagents: every result beside its call, every sidechain under its Task call', () => {
  const envelopes = envelopesOf(store.sessionInfo(FIXTURE.subagents).id);
  const { top, results, sidechains, calls } = logic.arrange(envelopes);
  const callIds = new Set(envelopes.flatMap((e) => toolUses(e).map((b) => b.id)));
  assert.deepEqual(calls, callIds);
  for (const e of envelopes) {
    for (const r of toolResults(e)) {
      if (callIds.has(r.tool_use_id)) assert.equal(results.get(r.tool_use_id)?.envelope.uuid, e.uuid, `the result of ${r.tool_use_id}`);
    }
  }
  const nested = envelopes.filter((e) => e.isSidechain && callIds.has(e.parentToolUseId));
  assert.ok(nested.length > 0 && sidechains.size >= 5, `the fixture's five subagents (${sidechains.size} chains)`);
  for (const [call, chain] of sidechains) {
    assert.ok(callIds.has(call));
    assert.ok(chain.every((e) => e.parentToolUseId === call && e.isSidechain));
  }
  assert.equal([...sidechains.values()].flat().length, nested.length);
  assert.deepEqual(top.map((e) => e.uuid), envelopes.filter((e) => !nested.includes(e)).map((e) => e.uuid), 'the rest in stored order');
});

test('arrange: a subagent whose Task call is not loaded stays on top, grouped by agent as an orphan chain', () => {
  const envelopes = envelopesOf(store.sessionInfo(FIXTURE.subagents).id);
  const firstSide = envelopes.findIndex((e) => e.isSidechain);
  // a page that starts inside a sidechain: its Task call was on the page before
  const page = envelopes.slice(firstSide);
  const loadedCalls = new Set(page.flatMap((e) => toolUses(e).map((b) => b.id)));
  const conversation = logic.arrange(page);
  const orphans = page.filter((e) => e.isSidechain && !loadedCalls.has(e.parentToolUseId));
  assert.ok(orphans.length > 0, 'the page starts with records of a subagent whose call is not loaded');
  for (const e of orphans) assert.ok(conversation.top.includes(e), `orphan ${e.uuid} stays on top`);
  const grouped = logic.groupOrphanChains(conversation.top);
  const chains = grouped.filter((item) => 'records' in item);
  assert.deepEqual(chains.flatMap((c) => c.records), orphans, 'every orphan in a chain, none lost');
  for (const c of chains) assert.ok(c.records.every((e) => e.agentId === c.agentId));
  assert.equal(grouped[0].agentId, page[0].agentId, 'the first chain is the first agent met');
});

/** A hand-made record: a message of `role` with its blocks, and `extra` fields (a sidechain's). */
function record(uuid, role, content, extra = {}) {
  return { uuid, type: role, isSidechain: false, message: { role, content }, ...extra };
}

test('arrange: hand-made edges: a result before its call, a result without a call, a result-only record', () => {
  const result = record('r1', 'user', [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]);
  const call = record('c1', 'assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]);
  const lost = record('r2', 'user', [{ type: 'tool_result', tool_use_id: 'gone', content: 'orphan' }, { type: 'text', text: 'and a note' }]);
  const side = record('s1', 'assistant', [{ type: 'text', text: 'sub' }], { isSidechain: true, parentToolUseId: 'never', agentId: 'a1' });
  const conversation = logic.arrange([result, call, lost, side]);
  assert.equal(conversation.results.get('t1')?.envelope, result, 'paired though stored before its call');
  assert.ok(!conversation.results.has('gone'));
  assert.deepEqual(conversation.top, [result, call, lost, side]);
  assert.equal(logic.onlyPairedResults(result, conversation), true, 'shown with its call, not by itself');
  assert.equal(logic.onlyPairedResults(lost, conversation), false, 'a result without its call is shown');
  assert.equal(logic.onlyPairedResults(call, conversation), false);
  assert.equal(logic.onlyPairedResults(record('e', 'user', []), conversation), false, 'an empty record is not hidden');
  assert.deepEqual(logic.groupOrphanChains(conversation.top).at(-1), { agentId: 'a1', records: [side] });
});

test('branchList: the branched session: the head\'s branch, then the rewound answer with where it forked', () => {
  const s = store.openSession(made.branched);
  const tree = s.tree();
  s.close();
  const branches = logic.branchList(tree);
  assert.deepEqual(branches.map((b) => [b.leaf, b.records, b.forkUuid, b.preview]), [
    [made.secondAnswer, 2, undefined, 'Spring rain falls softly on the grey waves'],
    [made.firstAnswer, 1, made.prompt, 'Autumn moon rises over the quiet harbour'],
  ]);
});

test('branchList: no subagent and no parallel-tool-call fork of the real fixtures is a branch', () => {
  let forks = 0;
  for (const info of store.listSessions()) {
    const s = store.openSession(info.id);
    const tree = s.tree();
    s.close();
    const branches = logic.branchList(tree);
    if (tree.head === null) {
      assert.deepEqual(branches, []);
      continue;
    }
    const byUuid = new Map(tree.nodes.map((n) => [n.uuid, n]));
    // parallel tool calls: a record of the head's branch with several children on it
    forks += tree.nodes.filter((n) => n.children.filter((c) => byUuid.get(c)?.onBranch).length > 1).length;
    assert.equal(branches[0].records, tree.nodes.filter((n) => n.onBranch).length, info.title);
    for (const b of branches.slice(1)) {
      const leaf = byUuid.get(b.leaf);
      assert.ok(!leaf.onBranch && !leaf.isSidechain, `${info.title}: ${b.leaf} is off the head's branch, not a subagent's`);
    }
  }
  assert.ok(forks > 0, 'the fixtures hold parallel tool calls');
});

/** A hand-made tree node. */
function node(uuid, parentUuid, { onBranch = true, isSidechain = false, preview = uuid, children = [] } = {}) {
  return { uuid, parentUuid, type: 'assistant', turn: 1, status: 'complete', timestamp: `2026-01-01T00:00:0${uuid.length}Z`, preview, children, isHead: false, onBranch, isSidechain };
}

test('branchList: hand-made edges: a branch that forks again, a separate root, a sidechain off a branch', () => {
  const tree = {
    head: 'b',
    roots: ['a', 'r'],
    nodes: [
      node('a', null, { children: ['b', 'x', 's'] }),
      node('b', 'a'),
      node('x', 'a', { onBranch: false, preview: 'x', children: ['x1', 'x2'] }),
      node('x1', 'x', { onBranch: false, preview: '' }),
      node('x2', 'x', { onBranch: false, children: ['xs'] }),
      node('xs', 'x2', { onBranch: false, isSidechain: true }),
      node('s', 'a', { onBranch: false, isSidechain: true }),
      node('r', null, { onBranch: false }),
    ],
  };
  const branches = logic.branchList(tree);
  assert.deepEqual(branches.map((b) => [b.leaf, b.records, b.forkUuid ?? null, b.preview]), [
    ['b', 2, null, 'b'],
    ['x1', 2, 'a', 'x'], // no preview of its own: its first record's
    ['x2', 2, 'a', 'x2'], // a subagent's record after it does not make it a fork
    ['r', 1, null, 'r'],
  ]);
  assert.equal(branches[1].forkPreview, 'a');
  assert.equal(branches[1].at, tree.nodes[3].timestamp);
  assert.deepEqual(logic.branchList({ head: null, roots: [], nodes: [] }), []);
});

test('changedFiles: two real snapshots: a changed, an added and a removed file; an unchanged one left out', async () => {
  const s = store.openSession(made.snapped);
  fs.writeFileSync(path.join(made.files, 'notes.txt'), 'port 9090\n');
  fs.writeFileSync(path.join(made.files, 'new.txt'), 'fresh');
  fs.rmSync(path.join(made.files, 'logo.bin'));
  s.appendUserMessage('Change the port');
  const later = await s.snapshotFiles(['notes.txt', 'logo.bin', 'gone.txt', 'new.txt']);
  fs.writeFileSync(path.join(made.files, 'new.txt'), 'fresher');
  s.appendUserMessage('Touch the new file only');
  await s.snapshotFiles(['notes.txt', 'new.txt']);
  await s.flush();
  const [first, second, third] = s.fileSnapshots();
  s.close();
  assert.equal(second.id, later.id);
  assert.deepEqual(logic.changedFiles(first, second).map((c) => [c.path, c.kind]), [
    ['logo.bin', 'removed'],
    ['new.txt', 'added'],
    ['notes.txt', 'changed'],
  ]);
  assert.deepEqual(logic.changedFiles(second, third).map((c) => [c.path, c.kind]), [['new.txt', 'changed']], 'notes.txt, the same, left out');
  assert.deepEqual(logic.changedFiles(first, first), [], 'a snapshot against itself');
  assert.deepEqual(logic.changedFiles(second, first).map((c) => [c.path, c.kind]), [['logo.bin', 'added'], ['new.txt', 'removed'], ['notes.txt', 'changed']]);
});

test('changedFiles: imported snapshots without a hash match by their backup name, and a deleted file is absent', () => {
  const file = (p, extra) => ({ path: p, state: 'present', backedUp: true, ...extra });
  const snap = (files) => ({ id: '1', messageUuid: 'm', timestamp: '', files });
  const from = snap([file('same', { source: { backupFileName: 'same@v1' } }), file('bumped', { source: { backupFileName: 'bumped@v1' } }), file('unknown', {}), file('was', {})]);
  const to = snap([file('same', { source: { backupFileName: 'same@v1' } }), file('bumped', { source: { backupFileName: 'bumped@v2' } }), file('unknown', {}), file('was', { state: 'deleted' })]);
  assert.deepEqual(logic.changedFiles(from, to).map((c) => [c.path, c.kind]), [
    ['bumped', 'changed'],
    ['unknown', 'changed'], // nothing tells they are the same
    ['was', 'removed'],
  ]);
  const hashed = snap([file('h', { hash: 'aa', source: { backupFileName: 'h@v1' } })]);
  const rehashed = snap([file('h', { hash: 'bb', source: { backupFileName: 'h@v1' } })]);
  assert.deepEqual(logic.changedFiles(hashed, rehashed).map((c) => c.kind), ['changed'], 'a hash wins over the backup name');
});

test('splitMarks: a real search snippet, and markers at the edges, unclosed, stray or empty; HTML stays text', async () => {
  const [hit] = await store.searchAsync('haiku', { highlight: ['\u0001', '\u0002'] });
  const parts = logic.splitMarks(hit.snippet);
  assert.ok(parts.some((p) => p.marked && /haiku/i.test(p.text)), JSON.stringify(parts));
  assert.equal(parts.map((p) => p.text).join(''), hit.snippet.replace(/[\u0001\u0002]/g, ''));
  assert.deepEqual(logic.splitMarks('\u0001<b>x</b>\u0002 & <script>'), [{ text: '<b>x</b>', marked: true }, { text: ' & <script>', marked: false }]);
  assert.deepEqual(logic.splitMarks('a\u0001\u0002b\u0001🌊 sea'), [{ text: 'a', marked: false }, { text: 'b', marked: false }, { text: '🌊 sea', marked: true }]);
  assert.deepEqual(logic.splitMarks('x\u0002y\u0001z\u0001w'), [{ text: 'x', marked: false }, { text: 'y', marked: false }, { text: 'z', marked: true }, { text: 'w', marked: true }], 'a stray end, a second start');
  assert.deepEqual(logic.splitMarks(''), []);
});
