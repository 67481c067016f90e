// store.listSessionsAsync() is listSessions() read off the JS thread: on a store of 300
// sessions of every status, with every option, it must give the same listing, and the same
// errors for bad options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, openStore, sessionError } from './helpers/common.mjs';

test('listSessionsAsync equals listSessions on 300 sessions, with every option', async (t) => {
  const { db, store } = tempStore(t);
  const ids = [];
  const streaming = [];
  for (let i = 0; i < 300; i++) {
    const s = store.createSession({ projectPath: `/work/p${i % 3}`, model: 'claude-sonnet-4-5' });
    s.appendUserMessage(`Task ${i}: fix → ✓ 漢字 🚀`);
    s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
    s.ingest({ type: 'text', text: `working on ${i}` });
    if (i % 10 !== 7) s.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: i, output_tokens: 1 } });
    else streaming.push(s);
    if (i % 25 === 0) store.renameSession(s.id, `Renamed "${i}" \\ ✓`);
    ids.push(s.id);
  }
  for (let i = 0; i < 300; i += 13) store.archiveSession(ids[i]);
  // The streaming replies' checkpoints (20 ms later) update their sessions: let them land
  // first, so that both listings read the same rows.
  for (const s of streaming) await s.flush();

  const optionSets = [
    {}, { limit: 10 }, { limit: 10, offset: 295 }, { offset: 290 }, { limit: 0 }, { projectPath: '/work/p1' },
    { projectPath: '/work/p2', limit: 7, offset: 3 }, { projectPath: '/work/none' }, { includeArchived: true },
    { includeArchived: true, projectPath: '/work/p0', limit: 50, offset: 10 },
  ];
  const check = async (st, label) => {
    for (const options of optionSets) {
      const sync = st.listSessions(options);
      assert.deepEqual(await st.listSessionsAsync(options), sync, `${label} ${JSON.stringify(options)}`);
    }
    assert.deepEqual(await st.listSessionsAsync(), st.listSessions());
  };
  await check(store, 'live');
  const all = store.listSessions({ includeArchived: true });
  assert.equal(all.length, 300);
  assert.equal(store.listSessions().length, 300 - Math.ceil(300 / 13));
  assert.ok(all.some((i) => i.status === 'archived'));
  assert.ok(all.some((i) => i.title === 'Renamed "0" \\ ✓'));

  // Several listings in flight at once, and from a second store on the file.
  const together = await Promise.all(optionSets.map((o) => store.listSessionsAsync(o)));
  together.forEach((list, i) => assert.deepEqual(list, store.listSessions(optionSets[i])));
  await store.flush();
  const other = openStore(db);
  t.after(() => other.close());
  await check(other, 'other store');
});

test('listSessionsAsync refuses what listSessions refuses, as a rejected promise', async (t) => {
  const { store } = tempStore(t);
  store.createSession().appendUserMessage('one');
  for (const options of [{ limit: -1 }, { offset: -5 }]) {
    assert.throws(() => store.listSessions(options), sessionError('INVALID_ARGUMENT'));
    const p = store.listSessionsAsync(options);
    assert.ok(p instanceof Promise);
    await assert.rejects(p, sessionError('INVALID_ARGUMENT'));
  }
  for (const options of [null, 'all', 5]) {
    assert.throws(() => store.listSessions(options), TypeError);
    await assert.rejects(store.listSessionsAsync(options), TypeError);
  }
  store.close();
  assert.throws(() => store.listSessions(), sessionError('STORE_CLOSED'));
  await assert.rejects(store.listSessionsAsync(), sessionError('STORE_CLOSED'));
});
