// session.fileContent() / fileContentAsync() through the addon: one file of one file
// snapshot, as that snapshot recorded it, as a Buffer (null for a file deleted at the
// message), with stable codes for what the snapshot does not hold, and nothing written;
// over snapshots taken here and over those imported from the real Claude Code transcripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempStore, tempDir, sessionError, writeTree } from './helpers/common.mjs';
import { CLAUDE_CODE, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

/** both reads a file with fileContent() and fileContentAsync() and checks they agree. */
async function both(s, snapshotId, p) {
  const sync = s.fileContent(snapshotId, p);
  const async = await s.fileContentAsync(snapshotId, p);
  assert.deepEqual(async, sync, `fileContentAsync(${p}) differs from fileContent()`);
  return sync;
}

const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0x89, 0x50, 0x4e, 0x47]);

test('fileContent() gives each file as its snapshot recorded it, bytes included, and null for a deleted one', async (t) => {
  const { db, store } = tempStore(t);
  const project = tempDir(t);
  writeTree(project, { 'src/app.js': 'let v = 1;\n', 'logo.png': BINARY, empty: '', 'naïve €.txt': 'ünïcode\n' });
  const s = store.createSession({ projectPath: project });
  s.appendUserMessage('Bump the version');
  const first = await s.snapshotFiles(['src/app.js', 'logo.png', 'empty', 'naïve €.txt', 'CHANGELOG.md']);
  writeTree(project, { 'src/app.js': 'let v = 2;\n' });
  s.ingest({ type: 'text', text: 'Done.' });
  s.ingest({ type: 'done', stopReason: 'end_turn' });
  s.appendUserMessage('And again');
  const second = await s.snapshotFiles(['src/app.js']);

  const app = await both(s, first.id, 'src/app.js');
  assert.ok(Buffer.isBuffer(app), 'a Buffer');
  assert.equal(app.toString('utf8'), 'let v = 1;\n', 'the first snapshot keeps the file as it was then');
  assert.equal((await both(s, second.id, 'src/app.js')).toString('utf8'), 'let v = 2;\n');
  assert.deepEqual(await both(s, first.id, 'logo.png'), BINARY);
  assert.equal((await both(s, first.id, 'naïve €.txt')).toString('utf8'), 'ünïcode\n');
  const empty = await both(s, first.id, 'empty');
  assert.ok(Buffer.isBuffer(empty) && empty.length === 0, 'an empty file is an empty Buffer, not null');
  assert.equal(await both(s, first.id, 'CHANGELOG.md'), null, 'a file that did not exist at the message');

  // The Buffer is the caller's: changing it changes nothing stored.
  app.fill(0);
  assert.equal(s.fileContent(first.id, 'src/app.js').toString('utf8'), 'let v = 1;\n');

  // From the file, in another store handle.
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  assert.equal(reopened.fileContent(first.id, 'src/app.js').toString('utf8'), 'let v = 1;\n');
});

test('fileContent() errors: unknown snapshot, untracked path, bad arguments; nothing is written', async (t) => {
  const { store } = tempStore(t);
  const project = tempDir(t);
  writeTree(project, { 'a.txt': 'a' });
  const s = store.createSession({ projectPath: project });
  s.appendUserMessage('go');
  const snap = await s.snapshotFiles(['a.txt']);
  const other = store.createSession({ projectPath: project });
  other.appendUserMessage('elsewhere');
  await store.flush();
  const before = { snapshots: s.fileSnapshots(), info: s.details(), otherSnapshots: other.fileSnapshots() };

  for (const [args, code] of [
    [['no-such-snapshot', 'a.txt'], 'SNAPSHOT_NOT_FOUND'],
    [[snap.id, 'b.txt'], 'FILE_NOT_FOUND'],
    [[snap.id, './a.txt'], 'FILE_NOT_FOUND'], // paths are matched as fileSnapshots() lists them
    [[snap.id, path.join(project, 'a.txt')], 'FILE_NOT_FOUND'],
    [['', 'a.txt'], 'INVALID_ARGUMENT'],
    [[snap.id, ''], 'INVALID_ARGUMENT'],
  ]) {
    assert.throws(() => s.fileContent(...args), sessionError(code), `fileContent(${args.join(', ')})`);
    await assert.rejects(s.fileContentAsync(...args), sessionError(code), `fileContentAsync(${args.join(', ')})`);
  }
  assert.throws(() => other.fileContent(snap.id, 'a.txt'), sessionError('SNAPSHOT_NOT_FOUND'), "another session's snapshot");
  for (const args of [[], [snap.id], [42, 'a.txt'], [snap.id, null], [snap.id, ['a.txt']]]) {
    assert.throws(() => s.fileContent(...args), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
    await assert.rejects(s.fileContentAsync(...args), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  }

  await store.flush();
  assert.deepEqual({ snapshots: s.fileSnapshots(), info: s.details(), otherSnapshots: other.fileSnapshots() }, before);
  s.close();
  assert.throws(() => s.fileContent(snap.id, 'a.txt'), sessionError('STORE_CLOSED'));
});

/** The real transcript whose file-history snapshots back files up, and its records. */
const SNAPSHOT = 'file-history-snapshot';
const historyRecords = (file) => readRecords(file).records.map((r) => r.value).filter((r) => r.type === SNAPSHOT);
const withBackups = jsonlFiles(CLAUDE_CODE).find((f) =>
  historyRecords(f).some((r) => Object.values(r.snapshot.trackedFileBackups).some((b) => b.backupFileName)));

/** backupContent is the made-up content of a backup file Claude Code would keep. */
const backupContent = (name) => `backup ${name}\n${crypto.createHash('sha256').update(name).digest('hex')}\n`;

test('fileContent() reads every file of the snapshots imported from a real transcript', async (t) => {
  assert.ok(withBackups, 'no real transcript has a file-history snapshot with a backup');
  const records = historyRecords(withBackups);
  const sid = readRecords(withBackups).records.map((r) => r.value).find((r) => r.sessionId).sessionId;
  const names = [...new Set(records.flatMap((r) => Object.values(r.snapshot.trackedFileBackups).map((b) => b.backupFileName).filter(Boolean)))];
  const gone = names[0]; // one backup Claude Code lost: its file is listed but not readable
  const historyDir = tempDir(t);
  fs.mkdirSync(path.join(historyDir, sid));
  for (const name of names.slice(1)) fs.writeFileSync(path.join(historyDir, sid, name), backupContent(name));

  const { store } = tempStore(t);
  await store.import(withBackups, { format: 'claude-code', fileHistoryDir: historyDir });
  const s = store.openSession(sid);
  t.after(() => s.close());
  const counts = { read: 0, deleted: 0, missing: 0 };
  for (const snap of await s.fileSnapshotsAsync()) {
    for (const file of snap.files) {
      const name = file.source?.backupFileName;
      if (file.state === 'deleted') {
        assert.equal(await both(s, snap.id, file.path), null, file.path);
        counts.deleted++;
      } else if (name === gone) {
        assert.equal(file.backedUp, false);
        assert.throws(() => s.fileContent(snap.id, file.path), sessionError('BACKUP_MISSING'));
        await assert.rejects(s.fileContentAsync(snap.id, file.path), sessionError('BACKUP_MISSING'));
        counts.missing++;
      } else {
        assert.equal((await both(s, snap.id, file.path)).toString('utf8'), backupContent(name), `${file.path} in ${snap.id}`);
        counts.read++;
      }
    }
  }
  t.diagnostic(`${path.basename(withBackups)}: ${counts.read} files read, ${counts.deleted} deleted, ${counts.missing} without backup`);
  assert.ok(counts.read >= 3 && counts.missing >= 1, JSON.stringify(counts));
});
