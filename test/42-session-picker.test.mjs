// <SessionPicker>: seed 004's session selector over a real store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from './helpers/common.mjs';
import { kit, h, render, frame, press, KEY, waitForFrame } from './helpers/ink.mjs';

const { SessionPicker } = kit;

/** mount renders a picker and records what it was asked to do. */
function mount(t, props) {
  const calls = [];
  const ui = render(h(SessionPicker, {
    onResume: (info) => calls.push(['resume', info.id]),
    onNew: () => calls.push(['new']),
    onQuit: () => calls.push(['quit']),
    ...props,
  }));
  t.after(() => ui.unmount());
  return { ui, calls };
}

/** rows are the list's lines, the pointer kept, box borders dropped. */
function rows(ui) {
  return frame(ui).split('\n')
    .map((l) => l.replace(/^[│|]\s?/, '').replace(/\s*[│|]$/, ''))
    .filter((l) => /^\s*(▸\s)?\s*\S.*\d+ messages?$/.test(l));
}

/** infoAt makes a SessionInfo as listSessions() gives it, last written at `updatedAt`. */
function infoAt(id, title, updatedAt, messageCount, status = 'active') {
  return { id, projectPath: '/p', title, createdAt: updatedAt.toISOString(), updatedAt: updatedAt.toISOString(), messageCount, status };
}

test('each row shows the relative time, the title and the message count, newest first, the first one picked', async (t) => {
  const now = new Date(2025, 11, 25, 15, 0);
  const sessions = [
    infoAt('s1', 'Implement auth system', new Date(2025, 11, 25, 14, 30), 45),
    infoAt('s2', 'Fix CORS issues', new Date(2025, 11, 25, 10, 15), 12),
    infoAt('s3', 'Add user registration', new Date(2025, 11, 24, 18, 0), 78),
    infoAt('s4', 'Database migrations', new Date(2025, 11, 23, 9, 0), 1, 'interrupted'),
    infoAt('s5', '', new Date(2024, 10, 2, 9, 0), 0),
  ];
  const { ui } = mount(t, { sessions, now });
  const lines = rows(ui);
  assert.equal(lines.length, 5, frame(ui));
  assert.match(lines[0], /^▸ 30 min ago\s+"Implement auth system"\s+45 messages$/);
  assert.match(lines[1], /^ {2}Today 10:15 AM\s+"Fix CORS issues"\s+12 messages$/);
  assert.match(lines[2], /^ {2}Yesterday\s+"Add user registration"\s+78 messages$/);
  assert.match(lines[3], /^ {2}Dec 23\s+"Database migrations" \(interrupted\)\s+1 message$/);
  assert.match(lines[4], /^ {2}Nov 2, 2024\s+\(untitled\)\s+0 messages$/);
  // The columns line up: every title starts where the first one does.
  const col = lines[0].indexOf('"');
  assert.ok(lines.slice(1, 4).every((l) => l.indexOf('"') === col), lines.join('\n'));
  assert.match(frame(ui), /Select a session to resume:/);
  assert.match(frame(ui), /\[Enter\] Resume {2}\[n\] New session {2}\[q\] Quit/);
});

test('arrow keys and j/k move the pointer within the list; Enter resumes the session under it', async (t) => {
  const now = new Date();
  const sessions = ['a', 'b', 'c'].map((id, i) => infoAt(id, `session ${id}`, new Date(now - (i + 1) * 3_600_000), i + 1));
  const { ui, calls } = mount(t, { sessions, now });
  await press(ui, KEY.down, KEY.down);
  await waitForFrame(ui, /▸ .*"session c"/);
  await press(ui, KEY.down); // already at the end: stays
  await press(ui, 'k');
  await waitForFrame(ui, /▸ .*"session b"/);
  await press(ui, KEY.up, KEY.up); // past the top: stays at the first
  await waitForFrame(ui, /▸ .*"session a"/);
  await press(ui, 'j', KEY.enter);
  assert.deepEqual(calls, [['resume', 'b']]);
});

test('keys that come faster than renders (a paste) all count', async (t) => {
  const sessions = ['a', 'b', 'c', 'd'].map((id, i) => infoAt(id, `session ${id}`, new Date(Date.now() - i * 3_600_000), 1));
  const { ui, calls } = mount(t, { sessions });
  for (const key of [KEY.down, KEY.down, 'j', 'k', KEY.enter]) ui.stdin.write(key);
  assert.deepEqual(calls, [['resume', 'c']]);
  await waitForFrame(ui, /▸ .*"session c"/);
});

test('n asks for a new session and q or Esc for quitting; without onNew, n is neither offered nor acted on', async (t) => {
  const sessions = [infoAt('a', 'only one', new Date(), 2)];
  const { ui, calls } = mount(t, { sessions });
  await press(ui, 'n', 'q', KEY.escape);
  assert.deepEqual(calls, [['new'], ['quit'], ['quit']]);

  const bare = render(h(SessionPicker, { sessions, onResume: () => calls.push(['resume']), onQuit: () => calls.push(['quit']) }));
  t.after(() => bare.unmount());
  assert.doesNotMatch(frame(bare), /New session/);
  await press(bare, 'n', KEY.enter);
  assert.deepEqual(calls.slice(3), [['resume']]);
});

test('a long list scrolls to keep the pointer in view and says how many are above and below', async (t) => {
  const now = new Date();
  const sessions = Array.from({ length: 30 }, (_, i) => infoAt(`id${i}`, `task ${i}`, new Date(now - i * 60_000 - 3_600_000), i));
  const { ui, calls } = mount(t, { sessions, now, visibleRows: 5 });
  assert.equal(rows(ui).length, 5);
  assert.match(frame(ui), /↓ 25 more/);
  assert.doesNotMatch(frame(ui), /↑/);
  await press(ui, KEY.pageDown, KEY.pageDown); // to the 11th
  await waitForFrame(ui, /▸ .*"task 10"/);
  assert.match(frame(ui), /↑ 8 more/);
  assert.match(frame(ui), /↓ 17 more/);
  assert.equal(rows(ui).length, 5);
  await press(ui, KEY.end);
  await waitForFrame(ui, /▸ .*"task 29"/);
  assert.match(frame(ui), /↑ 25 more/);
  assert.doesNotMatch(frame(ui), /↓/);
  await press(ui, KEY.home, KEY.enter);
  assert.deepEqual(calls, [['resume', 'id0']]);
});

test('given a store, it lists that project\'s sessions off the JS thread, newest first, at most limit', async (t) => {
  const { store } = tempStore(t);
  for (const [project, prompt] of [['/work/app', 'oldest in app'], ['/work/other', 'not this project'], ['/work/app', 'middle in app'], ['/work/app', 'newest in app']]) {
    const s = store.createSession({ projectPath: project });
    s.appendUserMessage(prompt);
    s.ingest({ type: 'text', text: 'ok' });
    s.ingest({ type: 'done' });
    s.close();
    await new Promise((r) => setTimeout(r, 5)); // distinct last-write times
  }
  const { ui, calls } = mount(t, { store, projectPath: '/work/app', limit: 2 });
  await waitForFrame(ui, /"middle in app"/);
  const lines = rows(ui);
  assert.equal(lines.length, 2, frame(ui));
  assert.match(lines[0], /^▸ just now\s+"newest in app"\s+2 messages$/);
  assert.match(lines[1], /"middle in app"\s+2 messages$/);
  await press(ui, KEY.down, KEY.enter);
  assert.deepEqual(calls, [['resume', store.listSessions({ projectPath: '/work/app' })[1].id]]);
});

test('an empty project offers only a new session and quitting; Enter does nothing', async (t) => {
  const { store } = tempStore(t);
  const { ui, calls } = mount(t, { store, projectPath: '/nowhere' });
  assert.match(frame(ui), /Listing sessions…/);
  await waitForFrame(ui, /No sessions yet in this project\./);
  assert.match(frame(ui), /\[n\] New session {2}\[q\] Quit/);
  assert.doesNotMatch(frame(ui), /Resume/);
  await press(ui, KEY.enter, KEY.down, 'n');
  assert.deepEqual(calls, [['new']]);
});

test('a store that cannot be listed shows the error instead of an empty list', async (t) => {
  const { store } = tempStore(t);
  store.close();
  const { ui } = mount(t, { store });
  await waitForFrame(ui, /Could not list sessions: .*closed/i);
});

test('without onQuit, q exits the Ink app', async (t) => {
  const ui = render(h(SessionPicker, { sessions: [], onResume: () => {} }));
  t.after(() => ui.unmount());
  let exited = false;
  // ink-testing-library does not expose waitUntilExit; an exited app ignores later renders.
  await press(ui, 'q');
  const before = ui.frames.length;
  ui.rerender(h(SessionPicker, { sessions: [], onResume: () => {}, title: 'changed' }));
  exited = ui.frames.length === before;
  assert.ok(exited, 'q unmounted the app');
});
