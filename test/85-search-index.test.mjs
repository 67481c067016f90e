// Search indexing left the commit path (migration 7): completed blocks are noted in a durable
// queue and indexed in slices when the writer is idle or when a search waits. A search must
// still find everything written before it: at once in the writing process, from a second
// store on the file, in a process whose writer never indexed (closed, or killed while busy),
// through the CLI while the writer is still open, and never a session deleted first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempStore, tempDir, openStore, helper, runNode, killAfterFirstLine, storeLocation } from './helpers/common.mjs';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');

/** cli runs the real bin and resolves with its exit code and output. */
function cli(args) {
  const env = { ...process.env };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'SESSIONKEEP_DB', 'SESSIONKEEP_PRICES']) delete env[name];
  return runNode(BIN, args, { env });
}

const sessionIds = (hits) => hits.map((h) => h.sessionId);

test('a search right after writing, without a flush, finds every kind of block, across several index slices', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('Why does the quasarflux test fail?');
  s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: 'Let me run ' });
  s.ingest({ type: 'text', text: 'the nebulawidget suite.' });
  s.ingest({ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test -- pulsarcheck' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_1', content: 'FAIL cometdust.test.ts' });
  const env = s.envelopes();
  assert.deepEqual(store.search('quasarflux').map((h) => h.messageUuid), [env[0].uuid], 'a prompt');
  assert.deepEqual(store.search('nebulawidget').map((h) => h.messageUuid), [env[1].uuid], 'deltas joined into one text block');
  assert.deepEqual(store.search('pulsarcheck').map((h) => h.messageUuid), [env[1].uuid], 'a tool call');
  assert.deepEqual((await store.searchAsync('cometdust')).map((h) => h.messageUuid), [env[2].uuid], 'a tool result, searchAsync');

  // 1,000 sessions written in one go: about eight slices wait; the search waits for all.
  const ids = [];
  for (let i = 0; i < 1000; i++) {
    const x = store.createSession({ projectPath: `/work/p${i % 4}` });
    x.appendUserMessage(`ticket zq${i} about the gravitonlens module`);
    ids.push(x.id);
  }
  assert.deepEqual(sessionIds(store.search('zq0')), [ids[0]], 'the first');
  assert.deepEqual(sessionIds(store.search('zq999')), [ids[999]], 'the last');
  assert.equal(store.search('gravitonlens', { limit: 5000 }).length, 1000, 'every one, each once');
  assert.equal(store.search('gravitonlens', { projectPath: '/work/p3', limit: 5000 }).length, 250);
});

test('a second store on the file finds text the first store wrote, and a session deleted before it was indexed is not found', async (t) => {
  const { db, store } = tempStore(t);
  const other = openStore(db);
  t.after(() => other.close());
  assert.deepEqual(other.search('hyperlattice'), []);
  const kept = store.createSession();
  kept.appendUserMessage('the hyperlattice cache is stale');
  const gone = store.createSession();
  gone.appendUserMessage('hyperlattice notes to delete');
  store.deleteSession(gone.id); // before any search could index it
  await store.flush();
  assert.deepEqual(sessionIds(other.search('hyperlattice')), [kept.id], 'the other store indexes what it did not write');
  assert.deepEqual(sessionIds(store.search('hyperlattice')), [kept.id]);
  assert.deepEqual(sessionIds(await other.searchAsync('delete')), []);
});

test('text written by a process that then closed its store and exited is found by the first search of the next', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const r = await runNode(helper('search-writer-child.mjs'), [db, 'close', 'photonrelay']);
  assert.equal(r.code, 0, r.stderr);
  const { id } = JSON.parse(r.stdout);
  const store = openStore(db);
  t.after(() => store.close());
  const hits = store.search('photonrelay');
  assert.deepEqual(hits.map((h) => h.sessionId), [id, id]);
  assert.deepEqual(hits.map((h) => h.role).sort(), ['assistant', 'user'], 'the prompt and the reply');
  assert.equal(store.search('filler', { limit: 1000 }).length, 300);

  const c = await cli(['search', 'photonrelay', '--db', storeLocation(db), '--json']);
  assert.equal(c.code, 0, c.stderr);
  assert.deepEqual(new Set(JSON.parse(c.stdout).map((h) => h.sessionId)), new Set([id]));
});

test('text written by a process killed while its writer was busy (never idle to index) is found by the next process', async (t) => {
  const db = path.join(tempDir(t), 'sessions.db');
  const { id, signal } = await killAfterFirstLine(helper('search-writer-child.mjs'), [db, 'killed-busy', 'gluonmatrix']);
  assert.equal(signal, 'SIGKILL');
  const c = await cli(['search', 'gluonmatrix', '--db', storeLocation(db), '--json']);
  assert.equal(c.code, 0, c.stderr);
  assert.deepEqual(JSON.parse(c.stdout).map((h) => h.sessionId), [id, id]);
  const store = openStore(db);
  t.after(() => store.close());
  assert.deepEqual(sessionIds(store.search('gluonmatrix')), [id, id]);
  assert.equal(store.search('filler', { limit: 1000 }).length, 300);
});

test('the CLI finds text written just before by a process whose store is still open and busy', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ projectPath: '/work/cli' });
  s.appendUserMessage('How do I configure the tachyonqueue?');
  s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'text', text: 'Set TACHYON_SIZE in tachyonqueue.json.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  // Keep this store's writer busy, so that it never indexes on its own while the CLI runs.
  const busy = store.createSession();
  busy.appendUserMessage('stream');
  busy.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  const timer = setInterval(() => busy.ingest({ type: 'text', text: '.' }), 5);
  t.after(() => clearInterval(timer));
  const c = await cli(['search', 'tachyonqueue', '--db', storeLocation(db)]);
  clearInterval(timer);
  assert.equal(c.code, 0, c.stderr);
  const lines = c.stdout.trimEnd().split('\n');
  assert.match(lines[0], new RegExp(`${s.id}  How do I configure the tachyonqueue\\?$`));
  assert.match(c.stdout, /user: How do I configure the tachyonqueue\?/);
  assert.match(c.stdout, /assistant: Set TACHYON_SIZE in tachyonqueue\.json\./);
});
