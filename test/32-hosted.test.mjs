// Hosted agents (seed 001): session keys, workspace stores, checkpoints, SDK session ids,
// interruption at exit, manual history, and the context an agent missed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, sk, tempDir, tempStore, sessionError, helper, runNodeJSON } from './helpers/common.mjs';

test('sessionByKey finds or creates the session of workspace:channel:handle', (t) => {
  const { store } = tempStore(t);
  assert.equal(store.sessionByKey('my-app:chat-a1b2c3d4:claude'), null, 'without create, a missing key is null');
  const s = store.sessionByKey('my-app:chat-a1b2c3d4:claude', { create: true, model: 'claude-sonnet-4-5' });
  const again = store.sessionByKey('my-app:chat-a1b2c3d4:claude');
  assert.equal(again.id, s.id);
  assert.notEqual(store.sessionByKey('my-app:chat-a1b2c3d4:codex', { create: true }).id, s.id);
  const info = s.details();
  assert.equal(info.key, 'my-app:chat-a1b2c3d4:claude');
  assert.equal(info.model, 'claude-sonnet-4-5');
  assert.equal(info.projectPath, '');
  assert.equal(s.status, 'active');
  assert.equal(s.checkpoint, undefined);
  assert.equal(s.sdkSessionId, undefined);

  assert.throws(() => store.sessionByKey('chat-a1b2c3d4:claude'), sessionError('WORKSPACE_REQUIRED', /no workspace/));
  assert.throws(() => store.sessionByKey(':chat:claude', { create: true }), sessionError('WORKSPACE_REQUIRED'));
  for (const bad of ['', 'just-one', 'a:b:c:d', 'a::c', 'a:b:']) {
    assert.throws(() => store.sessionByKey(bad, { create: true }), sessionError('INVALID_ARGUMENT'), bad);
  }
  assert.throws(() => store.sessionByKey(7), TypeError);
  assert.throws(() => store.sessionByKey('a:b:c', 'create'), TypeError);
});

test('openWorkspaceStore keeps one database per workspace; its keys may leave the workspace out', (t) => {
  const dir = tempDir(t);
  const ws = sk.openWorkspaceStore('my-app', { dir });
  t.after(() => ws.close());
  assert.equal(ws.path, path.join(dir, 'workspace-my-app-sessions.db'));
  assert.equal(ws.workspace, 'my-app');
  assert.ok(fs.existsSync(ws.path));
  const s = ws.sessionByKey('chat-1:claude', { create: true });
  assert.equal(ws.sessionByKey('my-app:chat-1:claude').id, s.id);
  assert.equal(s.details().key, 'my-app:chat-1:claude');
  assert.throws(() => ws.sessionByKey('other-app:chat-1:claude'), sessionError('INVALID_ARGUMENT', /workspace "other-app"/));

  const other = sk.openWorkspaceStore('other-app', { dir });
  t.after(() => other.close());
  assert.equal(other.sessionByKey('chat-1:claude'), null, 'another workspace is another database');

  assert.throws(() => sk.openWorkspaceStore('', { dir }), sessionError('WORKSPACE_REQUIRED'));
  assert.throws(() => sk.openWorkspaceStore('a/b', { dir }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => sk.openWorkspaceStore('a:b', { dir }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => sk.openWorkspaceStore(undefined), TypeError);
});

test('openWorkspaceStore takes openStore\'s options: redact and onError are kept (issue 34)', (t) => {
  const dir = tempDir(t);
  const ws = sk.openWorkspaceStore('redacted', { dir, redact: true, onError: () => {} });
  t.after(() => ws.close());
  const s = ws.createSession();
  s.restoreMessages([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { cmd: 'echo AKIAZ7QW3ER5TY7UI9OP' } }] }]);
  assert.equal(s.messages()[0].content[0].input.cmd, 'echo [REDACTED:aws_access_key]');
  assert.throws(() => sk.openWorkspaceStore('checked', { dir, onError: 'not a function' }), (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE' && /options\.onError/.test(err.message));
});

test('checkpoint and SDK session id survive the process; a hosted session left open at exit is interrupted', async (t) => {
  const { db, store } = tempStore(t);
  const key = 'ws:general:claude';
  const child = await runNodeJSON(helper('hosted-child.mjs'), [db, key]);

  const s = store.sessionByKey(key);
  assert.equal(s.id, child.id);
  assert.equal(s.checkpoint, 42);
  assert.equal(s.sdkSessionId, 'sdk-session-abc');
  assert.equal(s.status, 'interrupted', 'the agent exited with its session open: a disconnect');
  assert.deepEqual(s.getHistory().map((e) => [e.role, e.content]), [['user', 'summarise the channel'], ['assistant', 'Working on it.']]);
  const statuses = Object.fromEntries(store.listSessions({ includeArchived: true }).map((i) => [i.id, i.status]));
  assert.equal(statuses[child.plain], 'active', 'an ordinary session left idle at exit is not interrupted');

  s.commitCheckpoint(43);
  assert.equal(s.status, 'active', 'the next commit makes it active again');
  assert.equal(s.checkpoint, 43);
  s.clearSdkSession();
  assert.equal(s.sdkSessionId, undefined);
  s.close();
  store.close();

  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.sessionByKey(key);
  assert.equal(reopened.checkpoint, 43);
  assert.equal(reopened.sdkSessionId, undefined);
  assert.equal(reopened.status, 'active', 'closed on purpose, so not interrupted');
  const listed = again.listSessions().find((i) => i.id === child.id);
  assert.equal(listed.checkpoint, 43);
  assert.equal('sdkSessionId' in listed, false);

  assert.throws(() => reopened.commitCheckpoint(-1), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => reopened.commitCheckpoint(1.5), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => reopened.commitCheckpoint('7'), TypeError);
  assert.throws(() => reopened.updateSdkSession(''), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => reopened.updateSdkSession(), TypeError);
});

test('history: storeMessage, getHistory(limit) newest entries oldest first, clearHistory', (t) => {
  const { db, store } = tempStore(t);
  const s = store.sessionByKey('ws:dm:bot', { create: true });
  for (let i = 0; i < 30; i++) s.storeMessage(i % 2 ? 'assistant' : 'user', `entry ${i}`);

  const last20 = s.getHistory(20);
  assert.equal(last20.length, 20);
  assert.deepEqual(last20.map((e) => e.content), Array.from({ length: 20 }, (_, i) => `entry ${i + 10}`));
  assert.deepEqual(last20[0].role, 'user');
  assert.match(last20[0].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(s.getHistory().length, 30);
  assert.equal(s.getHistory(0).length, 30, '0 means no limit, as for listSessions');
  assert.deepEqual(s.getHistory(1).map((e) => e.content), ['entry 29']);
  assert.equal(s.getHistory(500).length, 30);
  assert.deepEqual(s.messages(), [], 'history is kept apart from the conversation');

  assert.throws(() => s.getHistory(-1), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => s.getHistory(2.5), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => s.getHistory('5'), TypeError);
  assert.throws(() => s.storeMessage('system', 'x'), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => s.storeMessage('user', 5), TypeError);

  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const r = again.sessionByKey('ws:dm:bot');
  assert.deepEqual(r.getHistory(3).map((e) => e.content), ['entry 27', 'entry 28', 'entry 29']);
  r.clearHistory();
  assert.deepEqual(r.getHistory(), []);
  r.storeMessage('user', 'fresh start');
  assert.deepEqual(r.getHistory().map((e) => e.content), ['fresh start']);
});

test('formatMissedContext: what came after the last checkpoint, newest kept within maxChars', (t) => {
  const { db, store } = tempStore(t);
  const s = store.sessionByKey('ws:general:claude', { create: true });
  s.appendUserMessage('@claude first question');
  s.ingest({ type: 'text', text: 'first answer' });
  s.commitCheckpoint(10);
  s.ingest({ type: 'done' });
  assert.deepEqual(s.formatMissedContext({ maxChars: 1000 }), { count: 0, omitted: 0, formatted: '' });

  // While the agent was away, three messages arrived on the channel.
  const missed = ['alice: the deploy failed', 'bob: rolled back 🚀', 'alice: can @claude look at the logs?'];
  for (const m of missed) s.appendUserMessage(m);

  const all = s.formatMissedContext({ maxChars: 10_000 });
  assert.equal(all.count, 3);
  assert.equal(all.omitted, 0);
  const lines = all.formatted.split('\n');
  assert.equal(lines.length, 3);
  lines.forEach((line, i) => assert.match(line, new RegExp(`^\\[\\d{4}-[^\\]]+Z\\] user: ${missed[i].replace(/[?]/g, '\\?')}$`)));
  assert.doesNotMatch(all.formatted, /first/);
  assert.deepEqual(s.formatMissedContext(), all, 'maxChars defaults to 8000');

  // A budget for the newest two lines and a bit keeps exactly those.
  const budget = lines[1].length + 1 + lines[2].length + 5;
  const two = s.formatMissedContext({ maxChars: budget });
  assert.deepEqual(two, { count: 2, omitted: 1, formatted: `${lines[1]}\n${lines[2]}` });
  assert.ok(two.formatted.length <= budget);

  // A budget smaller than the newest message cuts it, and never goes over.
  for (const maxChars of [1, 2, 10, lines[2].length - 1]) {
    const cut = s.formatMissedContext({ maxChars });
    assert.equal(cut.count, 1);
    assert.equal(cut.omitted, 2);
    assert.ok(cut.formatted.length <= maxChars, `${cut.formatted.length} <= ${maxChars}`);
    assert.ok(cut.formatted.endsWith('…'));
    assert.ok(lines[2].startsWith(cut.formatted.slice(0, -1)));
  }
  // UTF-16 code units are what counts: the rocket is two.
  const rocketLine = lines[1];
  assert.equal(s.formatMissedContext({ maxChars: rocketLine.length + 1 + lines[2].length }).count, 2);
  assert.equal(s.formatMissedContext({ maxChars: rocketLine.length + lines[2].length }).count, 1);

  assert.throws(() => s.formatMissedContext({ maxChars: 0 }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => s.formatMissedContext(100), TypeError);

  // The position the agent has seen survives a reopen; updateSdkSession moves it too.
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const r = again.sessionByKey('ws:general:claude');
  assert.deepEqual(r.formatMissedContext({ maxChars: 10_000 }), all);
  r.ingest({ type: 'tool_use', id: 'toolu_logs', name: 'read_logs', input: { tail: 50 } });
  r.ingest({ type: 'tool_result', toolUseId: 'toolu_logs', content: 'OOM at 12:01', isError: true });
  const withTools = r.formatMissedContext({ maxChars: 10_000 });
  assert.equal(withTools.count, 5);
  assert.match(withTools.formatted, /assistant: \[tool_use read_logs \{"tail":50\}\]$/m);
  assert.match(withTools.formatted, /user: \[tool_result error OOM at 12:01\]$/);
  r.updateSdkSession('sdk-2');
  assert.equal(r.formatMissedContext().count, 0);
});
