// Listings of some fields (listSessions({fields})): a picker over thousands of sessions asks
// for what it shows, and gets exactly that, in the same order and with the same values as the
// full listing; the full listing and sessionInfo() agree field for field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sessionError, sleep } from './helpers/common.mjs';

/** fill writes sessions of two projects with titles holding non-ASCII text, archives one, forks one. */
async function fill(store) {
  const ids = [];
  for (let i = 0; i < 30; i++) {
    const s = store.createSession({ projectPath: i % 2 ? '/a' : '/b', title: i === 7 ? 'naïve → "quoted" \\ title 😀' : undefined });
    s.appendUserMessage(`prompt ${i} ✓`);
    s.ingest({ type: 'tool_use_start', id: `toolu_${i}`, name: 'Read' });
    s.ingest({ type: 'tool_use_delta', partialJson: '{"path":"x"}' });
    s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10 + i, output_tokens: 5 } });
    ids.push(s.id);
    s.close();
    await sleep(2); // distinct updatedAt
  }
  store.archiveSession(ids[3]);
  const from = store.openSession(ids[4]);
  const f = await from.fork();
  from.close();
  ids.push(f.id);
  f.close();
  await store.flush();
  return ids;
}

const pick = (o, keys) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

test('a listing of some fields holds exactly those, equal to the full listing, in the same order', async (t) => {
  const { store } = tempStore(t);
  await fill(store);
  for (const options of [{}, { includeArchived: true }, { projectPath: '/a' }, { projectPath: '/b', limit: 5, offset: 2 }]) {
    const full = store.listSessions(options);
    for (const fields of [['id'], ['id', 'title', 'messageCount', 'updatedAt'], ['status', 'archivedAt'], ['tokens', 'forkedFrom', 'toolCount']]) {
      const some = store.listSessions({ ...options, fields });
      assert.deepEqual(some, full.map((i) => pick(i, fields)), `${JSON.stringify(options)} ${fields}`);
      assert.deepEqual(await store.listSessionsAsync({ ...options, fields }), some);
    }
  }
});

test('the full listing carries what sessionInfo() says of each session, and statuses follow archive and fork', async (t) => {
  const { store } = tempStore(t);
  const ids = await fill(store);
  const all = store.listSessions({ includeArchived: true });
  assert.equal(all.length, ids.length);
  for (const info of all) assert.deepEqual(info, store.sessionInfo(info.id));
  const byId = new Map(all.map((i) => [i.id, i]));
  assert.equal(byId.get(ids[3]).status, 'archived');
  assert.ok(byId.get(ids[3]).archivedAt);
  assert.deepEqual(byId.get(ids.at(-1)).forkedFrom?.sessionId, ids[4]);
  assert.equal(byId.get(ids[7]).title, 'naïve → "quoted" \\ title 😀');
  assert.deepEqual(byId.get(ids[9]).tokens.inputTokens, 19);
  const times = all.map((i) => Date.parse(i.updatedAt));
  assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
});

test('an unknown field is refused with INVALID_ARGUMENT, by both forms', async (t) => {
  const { store } = tempStore(t);
  await fill(store);
  assert.throws(() => store.listSessions({ fields: ['title', 'colour'] }), sessionError('INVALID_ARGUMENT', /colour/));
  await assert.rejects(store.listSessionsAsync({ fields: ['nope'] }), sessionError('INVALID_ARGUMENT', /nope/));
  assert.throws(() => store.listSessions({ fields: 'title' }), (e) => e instanceof TypeError || e.code === 'INVALID_ARGUMENT');
  assert.equal(store.listSessions({ fields: ['id'] }).length, 30, 'the store still lists');
});
