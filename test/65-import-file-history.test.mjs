// Claude Code file-history-snapshot records imported as file snapshots, through the addon:
// every record of the real transcripts becomes a snapshot at its message (fileSnapshots()),
// importing again adds none, the backups Claude Code keeps in <home>/file-history/<session>/
// (or in options.fileHistoryDir) are stored so restoreFiles() writes them, and a backup not
// found leaves its file listed but not restorable (BACKUP_MISSING).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tempStore, tempDir, sessionError, readTree } from './helpers/common.mjs';
import { CLAUDE_CODE, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

const SNAPSHOT = 'file-history-snapshot';

/** historyRecords returns the file-history-snapshot records of a transcript, in file order. */
const historyRecords = (file) => readRecords(file).records.map((r) => r.value).filter((r) => r.type === SNAPSHOT);

/** The real transcript whose snapshots back files up. */
const withBackups = jsonlFiles(CLAUDE_CODE).find((f) =>
  historyRecords(f).some((r) => Object.values(r.snapshot.trackedFileBackups).some((b) => b.backupFileName)));

/** expected is what fileSnapshots() should list for the records, without contents. */
function expected(records, backedUp = () => false) {
  return records.map((r) => ({
    messageUuid: r.snapshot.messageId,
    isUpdate: r.isSnapshotUpdate,
    files: Object.entries(r.snapshot.trackedFileBackups)
      .map(([p, b]) => ({ path: p, state: b.backupFileName ? 'present' : 'deleted', backedUp: backedUp(b.backupFileName), source: b }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
  }));
}

/** listed is fileSnapshots() reduced to what expected() gives. */
const listed = (s) => s.fileSnapshots().map((snap) => ({
  messageUuid: snap.messageUuid,
  isUpdate: snap.isUpdate ?? false,
  files: snap.files.map(({ path: p, state, backedUp, source }) => ({ path: p, state, backedUp, source })),
}));

/** contentOf is the made-up content of a backup file. */
const contentOf = (name) => `backup ${name}\n${crypto.createHash('sha256').update(name).digest('hex')}\n`;

/** writeBackups writes the backups of the records' files into dir/<sessionId>/, all but `leave`. */
function writeBackups(dir, sessionId, records, leave = new Set()) {
  fs.mkdirSync(path.join(dir, sessionId), { recursive: true });
  const names = new Set(records.flatMap((r) => Object.values(r.snapshot.trackedFileBackups).map((b) => b.backupFileName).filter(Boolean)));
  for (const name of names) if (!leave.has(name)) fs.writeFileSync(path.join(dir, sessionId, name), contentOf(name));
  return [...names];
}

const sessionOf = (file) => readRecords(file).records.map((r) => r.value).find((r) => r.sessionId)?.sessionId;

test('a real transcript with backed-up files is among the fixtures', () => {
  assert.ok(withBackups, 'no fixture has a file-history snapshot with a backup');
});

test('every file-history-snapshot record of the real transcripts becomes a snapshot of its message, once', async (t) => {
  const { store } = tempStore(t);
  const first = await store.import(CLAUDE_CODE, { format: 'claude-code' });
  let total = 0;
  const check = () => {
    for (const file of jsonlFiles(CLAUDE_CODE)) {
      const records = historyRecords(file);
      if (records.length === 0) continue;
      const s = store.openSession(sessionOf(file));
      try {
        assert.deepEqual(listed(s), expected(records), path.basename(file));
      } finally {
        s.close();
      }
      total += records.length;
    }
  };
  check();
  assert.ok(total >= 20, `${total} snapshot records`);
  const again = await store.import(CLAUDE_CODE, { format: 'claude-code' });
  assert.equal(again.records, 0);
  assert.equal(again.existing, first.records);
  total = 0;
  check(); // the same snapshots, no more
});

test('without its backups a snapshot lists its files, and restoring one that was present is BACKUP_MISSING', async (t) => {
  const { store } = tempStore(t);
  await store.import(withBackups, { format: 'claude-code' });
  const records = historyRecords(withBackups);
  const s = store.openSession(sessionOf(withBackups));
  t.after(() => s.close());
  const withFile = records.find((r) => Object.values(r.snapshot.trackedFileBackups).some((b) => b.backupFileName));
  const into = path.join(tempDir(t), 'out');
  await assert.rejects(s.restoreFiles(withFile.snapshot.messageId, { into }), sessionError('BACKUP_MISSING'));
  assert.deepEqual(readTree(into), {});
});

/** restoreExpected is what restoring at the last snapshot's message writes: its present files. */
function restoreExpected(records, missing = new Set()) {
  const last = records.at(-1);
  const lastOfMessage = records.filter((r) => r.snapshot.messageId === last.snapshot.messageId).at(-1);
  const files = {};
  for (const [p, b] of Object.entries(lastOfMessage.snapshot.trackedFileBackups)) {
    if (b.backupFileName && !missing.has(b.backupFileName)) files[p] = contentOf(b.backupFileName);
  }
  return { message: last.snapshot.messageId, files };
}

test('backups found in the Claude Code home beside the transcript are stored, and restoreFiles() writes them', async (t) => {
  const home = path.join(tempDir(t), '.claude');
  const sid = sessionOf(withBackups);
  const transcript = path.join(home, 'projects', '-Users-someone-app', `${sid}.jsonl`);
  fs.mkdirSync(path.dirname(transcript), { recursive: true });
  fs.copyFileSync(withBackups, transcript);
  const records = historyRecords(withBackups);
  const names = writeBackups(path.join(home, 'file-history'), sid, records);
  assert.ok(names.length >= 3, `${names.length} backups`);

  const { store } = tempStore(t);
  await store.import(transcript);
  const s = store.openSession(sid);
  t.after(() => s.close());
  assert.deepEqual(listed(s), expected(records, (name) => Boolean(name)));
  for (const snap of s.fileSnapshots()) {
    for (const f of snap.files.filter((file) => file.backedUp)) {
      assert.equal(f.hash, crypto.createHash('sha256').update(contentOf(f.source.backupFileName)).digest('hex'));
      assert.equal(f.size, Buffer.byteLength(contentOf(f.source.backupFileName)));
    }
  }
  const want = restoreExpected(records);
  assert.ok(Object.keys(want.files).length >= 2);
  const into = path.join(tempDir(t), 'out');
  const res = await s.restoreFiles(want.message, { into });
  assert.deepEqual(readTree(into), want.files);
  assert.deepEqual([...res.written].sort(), Object.keys(want.files).sort());
});

test('options.fileHistoryDir names the backups folder; a backup missing from it is not restorable, the others are', async (t) => {
  const dir = path.join(tempDir(t), 'file-history');
  const sid = sessionOf(withBackups);
  const records = historyRecords(withBackups);
  const { message, files } = restoreExpected(records);
  const lastOfMessage = records.filter((r) => r.snapshot.messageId === message).at(-1);
  const gone = Object.values(lastOfMessage.snapshot.trackedFileBackups).find((b) => b.backupFileName).backupFileName;
  writeBackups(dir, sid, records, new Set([gone]));

  const { store } = tempStore(t);
  await assert.rejects(store.import(withBackups, { fileHistoryDir: 42 }), TypeError);
  await store.import(withBackups, { format: 'claude-code', fileHistoryDir: dir });
  const s = store.openSession(sid);
  t.after(() => s.close());
  assert.deepEqual(listed(s), expected(records, (name) => Boolean(name) && name !== gone));
  const into = path.join(tempDir(t), 'out');
  await assert.rejects(s.restoreFiles(message, { into }), sessionError('BACKUP_MISSING'));
  assert.deepEqual(readTree(into), {}, 'nothing is written when a backup is missing');
  // An earlier message whose files were all found restores.
  const complete = records.find((r) => {
    const backups = Object.values(r.snapshot.trackedFileBackups);
    return backups.some((b) => b.backupFileName) && backups.every((b) => b.backupFileName !== gone);
  });
  assert.ok(complete, 'a snapshot whose backups were all found');
  const res = await s.restoreFiles(complete.snapshot.messageId, { into });
  assert.ok(res.written.length > 0);
  assert.ok(Object.keys(readTree(into)).length > 0 && Object.keys(files).length > 0);
});
