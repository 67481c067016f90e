// store.listSessions: newest first, by project, limited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sleep, UUID_V7, ISO_MS } from './helpers/common.mjs';

test('listSessions lists newest first, filters by projectPath, and limits', async (t) => {
  const { store } = tempStore(t);
  const a = store.createSession({ projectPath: '/work/alpha' });
  a.appendUserMessage('First prompt of alpha\nwith a second line');
  await store.flush();
  await sleep(5);
  const b = store.createSession({ projectPath: '/work/beta' });
  b.appendUserMessage('Beta asks');
  b.ingest({ type: 'text', text: 'Beta answered' });
  b.ingest({ type: 'done' });
  await store.flush();
  await sleep(5);
  const c = store.createSession({ projectPath: '/work/alpha', title: 'Given title' });
  c.appendUserMessage('This prompt does not rename it');
  await store.flush();

  assert.deepEqual(store.listSessions().map((i) => i.id), [c.id, b.id, a.id]);
  assert.deepEqual(store.listSessions({ projectPath: '/work/alpha' }).map((i) => i.id), [c.id, a.id]);
  assert.deepEqual(store.listSessions({ projectPath: '/work/nowhere' }), []);
  assert.deepEqual(store.listSessions({ limit: 2 }).map((i) => i.id), [c.id, b.id]);
  assert.deepEqual(store.listSessions({ projectPath: '/work/alpha', limit: 1 }).map((i) => i.id), [c.id]);
  assert.equal(store.listSessions({ limit: 0 }).length, 3, 'limit 0 means no limit');

  // Writing to a session makes it the newest.
  await sleep(5);
  a.ingest({ type: 'text', text: 'alpha again' });
  await store.flush();
  assert.deepEqual(store.listSessions().map((i) => i.id), [a.id, c.id, b.id]);

  const [info] = store.listSessions({ projectPath: '/work/beta' });
  assert.deepEqual(Object.keys(info).sort(), ['createdAt', 'id', 'lastAccessedAt', 'lastMessageAt', 'messageCount', 'projectPath', 'status', 'title', 'tokens', 'toolCount', 'updatedAt']);
  assert.match(info.id, UUID_V7);
  assert.equal(info.projectPath, '/work/beta');
  assert.equal(info.title, 'Beta asks');
  assert.equal(info.messageCount, 2);
  assert.equal(info.status, 'active');
  assert.match(info.createdAt, ISO_MS);
  assert.match(info.updatedAt, ISO_MS);
  const created = Date.parse(info.createdAt);
  const updated = Date.parse(info.updatedAt);
  assert.ok(Number.isFinite(created) && Number.isFinite(updated));
  assert.ok(updated >= created);
  assert.ok(Math.abs(Date.now() - created) < 60_000);

  const titles = Object.fromEntries(store.listSessions().map((i) => [i.id, i.title]));
  assert.equal(titles[a.id], 'First prompt of alpha', 'the title is the first line of the first prompt');
  assert.equal(titles[c.id], 'Given title');
});

test('listSessions: the title is cut to 80 characters; provider, model, contextWindow when given', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ projectPath: '/p', provider: 'claude', model: 'claude-sonnet-4-5', contextWindow: 200000 });
  s.appendUserMessage([{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }, { type: 'text', text: `  ${'é'.repeat(100)}  ` }]);
  const [info] = store.listSessions();
  assert.equal(info.title, `${'é'.repeat(79)}…`);
  assert.equal([...info.title].length, 80);
  assert.equal(info.provider, 'claude');
  assert.equal(info.model, 'claude-sonnet-4-5');
  assert.equal(info.contextWindow, 200000);

  const untitled = store.createSession();
  untitled.ingest({ type: 'text', text: 'assistant first' });
  const listed = store.listSessions().find((i) => i.id === untitled.id);
  assert.equal(listed.title, '');
  assert.equal(listed.projectPath, process.cwd(), 'projectPath defaults to the working directory');
});
