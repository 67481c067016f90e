// File-history snapshots (seed 002) through the addon: snapshotFiles() reads files at a
// message, fileSnapshots() lists them, restoreFiles() puts them back into a folder and never
// outside it; all of it on the session's branches and across a reopen of the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempStore, tempDir, sessionError, readTree, writeTree } from './helpers/common.mjs';

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

test('snapshotFiles() then restoreFiles() puts files back as they were at each message', async (t) => {
  const { db, store } = tempStore(t);
  const project = tempDir(t);
  writeTree(project, { 'src/app.js': 'let v = 1;\n', 'README.md': '# App\n' });
  fs.chmodSync(path.join(project, 'src/app.js'), 0o755);
  fs.chmodSync(path.join(project, 'README.md'), 0o644);
  const s = store.createSession({ projectPath: project });

  const u1 = s.appendUserMessage('Bump the version');
  const snap = await s.snapshotFiles(['src/app.js', path.join(project, 'README.md'), 'src/new.js']);
  assert.equal(snap.messageUuid, u1.uuid);
  assert.equal(snap.root, project);
  assert.deepEqual(snap.files, [
    { path: 'README.md', state: 'present', hash: sha256('# App\n'), size: 6, mode: 0o644, backedUp: true },
    { path: 'src/app.js', state: 'present', hash: sha256('let v = 1;\n'), size: 11, mode: 0o755, backedUp: true },
    { path: 'src/new.js', state: 'deleted', backedUp: false },
  ]);
  assert.deepEqual(s.fileSnapshots(), [snap]);

  // The agent edits; the next prompt snapshots only the files that change in its turn.
  s.ingest({ type: 'text', text: 'Done.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  writeTree(project, { 'src/app.js': 'let v = 2;\n', 'src/new.js': 'export {};\n' });
  const u2 = s.appendUserMessage('Now add tests');
  await s.snapshotFiles(['src/app.js', 'src/new.js']);
  writeTree(project, { 'src/app.js': 'let v = 3;\n' });

  const into = path.join(tempDir(t), 'restored');
  let res = await s.restoreFiles(u1.uuid, { into });
  assert.deepEqual(res, { messageUuid: u1.uuid, written: ['README.md', 'src/app.js'], removed: [], leftInPlace: [] });
  assert.deepEqual(readTree(into), { 'README.md': '# App\n', 'src/app.js': 'let v = 1;\n' });
  assert.equal(fs.statSync(path.join(into, 'src/app.js')).mode & 0o777, 0o755);

  res = await s.restoreFiles(u2.uuid, { into });
  assert.deepEqual(readTree(into), { 'README.md': '# App\n', 'src/app.js': 'let v = 2;\n', 'src/new.js': 'export {};\n' },
    'README.md is as the first snapshot left it');

  // A file that did not exist at the message is left in place unless removeDeleted says so.
  res = await s.restoreFiles(u1.uuid, { into });
  assert.deepEqual(res.leftInPlace, ['src/new.js']);
  assert.equal(readTree(into)['src/new.js'], 'export {};\n');
  res = await s.restoreFiles(u1.uuid, { into, removeDeleted: true });
  assert.deepEqual(res.removed, ['src/new.js']);
  assert.deepEqual(readTree(into), { 'README.md': '# App\n', 'src/app.js': 'let v = 1;\n' });

  // Restoring into the project itself is the undo.
  await s.restoreFiles(u2.uuid, { into: project });
  assert.equal(fs.readFileSync(path.join(project, 'src/app.js'), 'utf8'), 'let v = 2;\n');

  // After a rewind to the first prompt, the second prompt's snapshot is on another branch.
  await s.rewind(u1.uuid);
  const u3 = s.appendUserMessage('Bump it differently');
  const there = tempDir(t);
  await s.restoreFiles(u3.uuid, { into: there });
  assert.deepEqual(readTree(there), { 'README.md': '# App\n', 'src/app.js': 'let v = 1;\n' });

  // Everything survives closing and reopening the store.
  const listed = s.fileSnapshots();
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.deepEqual(reopened.fileSnapshots(), listed);
  assert.deepEqual(await reopened.fileSnapshotsAsync(u2.uuid), [listed[1]]);
  const afterReopen = tempDir(t);
  await reopened.restoreFiles(u2.uuid, { into: afterReopen });
  assert.deepEqual(readTree(afterReopen), { 'README.md': '# App\n', 'src/app.js': 'let v = 2;\n', 'src/new.js': 'export {};\n' });
});

test('restoreFiles() refuses a symbolic link that points out of the folder and writes nothing', async (t) => {
  const { store } = tempStore(t);
  const project = tempDir(t);
  writeTree(project, { 'a.txt': 'a', 'config/settings.json': '{"mine":true}' });
  const s = store.createSession({ projectPath: project });
  const u = s.appendUserMessage('go');
  await s.snapshotFiles(['a.txt', 'config/settings.json']);

  const outside = tempDir(t);
  writeTree(outside, { 'settings.json': '{"theirs":true}' });
  for (const [name, link] of [
    ['a folder on the way', () => ['config', outside]],
    ['a relative folder on the way', (into) => ['config', path.relative(into, outside)]],
    ['the file itself', () => ['a.txt', path.join(outside, 'settings.json')]],
  ]) {
    const into = tempDir(t);
    const [at, target] = link(into);
    fs.symlinkSync(target, path.join(into, at));
    await assert.rejects(s.restoreFiles(u.uuid, { into }), sessionError('PATH_ESCAPE', /symbolic link/), name);
    assert.deepEqual(readTree(outside), { 'settings.json': '{"theirs":true}' }, `${name}: the outside folder is untouched`);
    assert.deepEqual(fs.readdirSync(into), [at], `${name}: nothing was written`);
  }

  // A link that stays inside the folder is followed.
  const into = tempDir(t);
  fs.mkdirSync(path.join(into, 'real'));
  fs.symlinkSync('real', path.join(into, 'config'));
  await s.restoreFiles(u.uuid, { into });
  assert.deepEqual(readTree(into), { 'a.txt': 'a', 'real/settings.json': '{"mine":true}' });
});

test('snapshotFiles() refuses paths that escape its root, and folders', async (t) => {
  const { store } = tempStore(t);
  const project = tempDir(t);
  const outside = tempDir(t);
  writeTree(project, { 'src/a.js': 'a' });
  writeTree(outside, { 'secret.txt': 'secret' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(project, 'leak.txt'));
  const s = store.createSession({ projectPath: project });
  s.appendUserMessage('go');

  await assert.rejects(s.snapshotFiles(['src/a.js', '../secret.txt']), sessionError('PATH_ESCAPE'));
  await assert.rejects(s.snapshotFiles([path.join(outside, 'secret.txt')]), sessionError('PATH_ESCAPE'));
  await assert.rejects(s.snapshotFiles(['leak.txt']), sessionError('PATH_ESCAPE', /symbolic link/));
  await assert.rejects(s.snapshotFiles(['src']), sessionError('INVALID_ARGUMENT', /folder/));
  assert.deepEqual(s.fileSnapshots(), [], 'a refused snapshot records nothing');

  await assert.rejects(s.snapshotFiles('src/a.js'), TypeError);
  await assert.rejects(s.snapshotFiles([1]), TypeError);
  await assert.rejects(s.snapshotFiles(['src/a.js'], { messageUuid: 'nope' }), sessionError('MESSAGE_NOT_FOUND'));
  await assert.rejects(store.createSession({ projectPath: project }).snapshotFiles(['src/a.js']), sessionError('INVALID_ARGUMENT', /no messages/));
});

test('restoreFiles() errors: no folder, no message, no snapshot', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ projectPath: tempDir(t) });
  const u = s.appendUserMessage('go');
  await assert.rejects(s.restoreFiles(u.uuid), TypeError);
  await assert.rejects(s.restoreFiles(u.uuid, {}), TypeError);
  await assert.rejects(s.restoreFiles(u.uuid, { into: tempDir(t) }), sessionError('SNAPSHOT_NOT_FOUND'));
  await assert.rejects(s.restoreFiles('0190ffff-0000-7000-8000-000000000000', { into: tempDir(t) }), sessionError('MESSAGE_NOT_FOUND'));
});

test('a fork brings the snapshots of the history it shares', async (t) => {
  const { store } = tempStore(t);
  const project = tempDir(t);
  writeTree(project, { 'notes.md': 'one' });
  const s = store.createSession({ projectPath: project });
  const u1 = s.appendUserMessage('first');
  await s.snapshotFiles(['notes.md']);
  writeTree(project, { 'notes.md': 'two' });
  s.appendUserMessage('second');
  await s.snapshotFiles(['notes.md']);

  const f = await s.fork(u1.uuid);
  assert.deepEqual(f.fileSnapshots().map((x) => x.messageUuid), [u1.uuid]);
  const into = tempDir(t);
  await f.restoreFiles(u1.uuid, { into });
  assert.deepEqual(readTree(into), { 'notes.md': 'one' });
});
