// Managing sessions: pages of listings, rename, archive, unarchive, delete, moveProject.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, tempStore, sessionError, sleep, ISO_MS } from './helpers/common.mjs';

test('listSessions pages newest first; listSessionsAsync lists the same off the JS thread', async (t) => {
  const { store } = tempStore(t);
  const made = [];
  for (let i = 0; i < 25; i++) {
    const s = store.createSession({ projectPath: i % 2 ? '/odd' : '/even' });
    s.appendUserMessage(`p${i}`);
    made.push(s.id);
    s.close();
    if (i % 5 === 4) { await store.flush(); await sleep(3); }
  }
  const all = store.listSessions();
  assert.equal(all.length, 25);
  const pages = [];
  for (let offset = 0; offset < 25; offset += 10) pages.push(...store.listSessions({ limit: 10, offset }));
  assert.deepEqual(pages.map((i) => i.id), all.map((i) => i.id));
  assert.deepEqual(new Set(pages.map((i) => i.id)), new Set(made));
  assert.deepEqual(store.listSessions({ offset: 20 }).map((i) => i.id), all.slice(20).map((i) => i.id), 'an offset without a limit lists the rest');
  assert.deepEqual(store.listSessions({ projectPath: '/odd', limit: 3, offset: 3 }).map((i) => i.id),
    all.filter((i) => i.projectPath === '/odd').slice(3, 6).map((i) => i.id));
  assert.deepEqual(await store.listSessionsAsync({ limit: 10, offset: 10 }), all.slice(10, 20));
  assert.throws(() => store.listSessions({ offset: -1 }), sessionError('INVALID_ARGUMENT'));
  await assert.rejects(store.listSessionsAsync({ limit: -1 }), sessionError('INVALID_ARGUMENT'));
  await assert.rejects(store.listSessionsAsync('all'), TypeError);
});

test('renameSession: the title sticks, even against the first prompt and another process', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const other = store.createSession();
  other.appendUserMessage('named by its prompt');
  await store.flush();
  const order = store.listSessions().map((i) => i.id);

  store.renameSession(s.id, '  Auth rewrite  ');
  s.appendUserMessage('this first prompt does not rename it');
  assert.equal(store.openSession(s.id).details().title, 'Auth rewrite');
  assert.deepEqual(store.listSessions().map((i) => i.id), [s.id, other.id], 'writing moves it up, as always');

  store.renameSession(other.id, 'Renamed');
  assert.deepEqual(store.listSessions().map((i) => i.id), [s.id, other.id], 'renaming alone does not move it up');
  assert.ok(order.includes(other.id));

  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const titles = Object.fromEntries(again.listSessions().map((i) => [i.id, i.title]));
  assert.deepEqual(titles, { [s.id]: 'Auth rewrite', [other.id]: 'Renamed' });

  assert.throws(() => again.renameSession(s.id, '   '), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => again.renameSession('no-such-id', 'x'), sessionError('SESSION_NOT_FOUND'));
  assert.throws(() => again.renameSession(s.id), TypeError);
});

test('archiveSession hides a session from listings and --continue; unarchive or a new message brings it back', async (t) => {
  const { store } = tempStore(t);
  const older = store.createSession({ projectPath: '/app' });
  older.appendUserMessage('older');
  await store.flush();
  await sleep(5);
  const newer = store.createSession({ projectPath: '/app' });
  newer.appendUserMessage('newer');
  await store.flush();

  store.archiveSession(newer.id);
  assert.deepEqual(store.listSessions().map((i) => i.id), [older.id]);
  assert.equal(store.latestSession('/app').id, older.id, '--continue skips archived sessions');
  const listed = store.listSessions({ includeArchived: true });
  assert.deepEqual(listed.map((i) => [i.id, i.status]), [[newer.id, 'archived'], [older.id, 'active']]);
  assert.match(listed[0].archivedAt, ISO_MS);
  assert.equal(newer.details().status, 'archived');

  store.unarchiveSession(newer.id);
  assert.deepEqual(store.listSessions().map((i) => i.id), [newer.id, older.id]);
  assert.equal('archivedAt' in store.listSessions()[0], false);
  assert.equal(store.latestSession('/app').id, newer.id);

  store.archiveSession(older.id);
  older.ingest({ type: 'text', text: 'used again' });
  assert.equal(older.details().status, 'active', 'writing to an archived session unarchives it');
  assert.throws(() => store.archiveSession('nope'), sessionError('SESSION_NOT_FOUND'));
  assert.throws(() => store.unarchiveSession(''), sessionError('INVALID_ARGUMENT'));
});

test('deleteSession deletes one session for good, sharing blobs safely, and closes it if it is open', async (t) => {
  const { db, store } = tempStore(t);
  const big = 'x'.repeat(20_000); // over the blob threshold: stored once, shared by both sessions
  const record = (s, text) => {
    s.appendUserMessage(text);
    s.ingest({ type: 'tool_use', id: `toolu_${text}`, name: 'read_file', input: { path: 'big.txt' } });
    s.ingest({ type: 'tool_result', toolUseId: `toolu_${text}`, content: big });
    s.ingest({ type: 'text', text: 'read it' });
    s.ingest({ type: 'done' });
  };
  const keep = store.createSession();
  record(keep, 'keep');
  const gone = store.createSession();
  record(gone, 'gone');
  const kept = keep.messages();

  store.deleteSession(gone.id);
  assert.throws(() => gone.messages(), sessionError('STORE_CLOSED'), 'the open session was closed');
  assert.deepEqual(store.listSessions().map((i) => i.id), [keep.id]);
  assert.throws(() => store.openSession(gone.id), sessionError('SESSION_NOT_FOUND'));
  assert.throws(() => store.deleteSession(gone.id), sessionError('SESSION_NOT_FOUND'));
  assert.deepEqual(keep.messages(), kept, 'the shared blob is still there');

  await store.deleteSessionAsync(keep.id);
  assert.deepEqual(store.listSessions(), []);
  await assert.rejects(store.deleteSessionAsync(keep.id), sessionError('SESSION_NOT_FOUND'));
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  assert.deepEqual(again.listSessions(), []);
  assert.throws(() => again.openSession(keep.id), sessionError('SESSION_NOT_FOUND'));
});

test('moveProject moves a project and its folders; sessions keep their ids and contents', async (t) => {
  const { db, store } = tempStore(t);
  const make = (projectPath, text) => {
    const s = store.createSession({ projectPath });
    s.appendUserMessage(text);
    return s.id;
  };
  const root = make('/home/ann/app', 'root');
  const sub = make('/home/ann/app/packages/web', 'sub');
  const sibling = make('/home/ann/app-old', 'sibling');
  const unicode = make('/home/ann/ünïcode', 'unicode');
  await store.flush();

  assert.equal(store.moveProject('/home/ann/app/', '/srv/app'), 2);
  const paths = Object.fromEntries(store.listSessions().map((i) => [i.id, i.projectPath]));
  assert.deepEqual(paths, {
    [root]: '/srv/app',
    [sub]: '/srv/app/packages/web',
    [sibling]: '/home/ann/app-old',
    [unicode]: '/home/ann/ünïcode',
  });
  assert.equal(store.latestSession('/srv/app').id, root);
  assert.equal(store.latestSession('/home/ann/app'), null);
  assert.equal(await store.moveProjectAsync('/home/ann/ünïcode', '/home/ann/unicode'), 1);
  await assert.rejects(store.moveProjectAsync('', '/x'), sessionError('INVALID_ARGUMENT'));
  assert.equal(store.moveProject('/nowhere', '/elsewhere'), 0);
  assert.equal(store.moveProject('/srv/app', '/srv/app'), 0);
  assert.throws(() => store.moveProject('', '/x'), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.moveProject('/x'), TypeError);

  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const s = again.latestSession('/srv/app/packages/web');
  assert.equal(s.id, sub);
  assert.equal(s.messages()[0].content[0].text, 'sub');
  assert.equal(again.latestSession('/home/ann/unicode').id, unicode);
});
