// sessionkeep verify [--repair] and store.verify(): a store as the library writes it (streamed
// turns with tool calls, file snapshots, the real Claude Code and Codex transcripts imported)
// checks clean; each kind of damage made to the file with the sqlite3 shell is found with its
// code and exit status 1; --repair rebuilds the search indexes and counts and keeps every
// message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode, sqliteFileOnly, tempStore } from './helpers/common.mjs';
import { CLAUDE_CODE, CODEX } from './helpers/transcripts.mjs';
import { SEED000_PROMPT, SEED000_CHUNKS } from './helpers/fixtures.mjs';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
const skip = sqliteFileOnly('the file is damaged with the sqlite3 shell');

const verify = (db, ...args) => runNode(BIN, ['verify', '--db', db, '--json', ...args], { timeoutMs: 120000 });
const sql = (db, statement) => execFileSync('sqlite3', [db, statement], { encoding: 'utf8' }).trim();
const codes = (report) => report.problems.map((p) => p.code).sort();

/** written fills a store as the library writes one and returns its path, closed. */
async function written(t) {
  const { db, store, dir } = tempStore(t);
  const s = store.createSession({ projectPath: '/work/verify' });
  s.appendUserMessage(SEED000_PROMPT);
  for (const chunk of SEED000_CHUNKS) s.ingest(chunk);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'x'.repeat(20000));
  await s.snapshotFiles(['a.txt'], { root: dir }); // its content a blob
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  await store.import(CODEX, { format: 'codex' });
  store.close();
  return db;
}

test('a store as written checks clean: exit 0, no problem', { skip, timeout: 180000 }, async (t) => {
  const db = await written(t);
  const run = await verify(db);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.deepEqual(report.problems, []);
  assert.ok(report.ok && report.sessionCount > 3 && report.messageCount > 100, run.stdout);
  const text = await runNode(BIN, ['verify', '--db', db]);
  assert.match(text.stdout, /^ok: \d+ sessions, \d+ messages/m);
});

test('an emptied search index and a wrong count are found (exit 1), and --repair rebuilds them without losing a message', { skip, timeout: 180000 }, async (t) => {
  const db = await written(t);
  const messages = sql(db, 'SELECT COUNT(*) FROM messages');
  sql(db, "INSERT INTO message_search(message_search) VALUES ('delete-all'); INSERT INTO body_search(body_search) VALUES ('delete-all'); DELETE FROM search_pending; DELETE FROM body_pending");
  sql(db, 'UPDATE sessions SET message_count = message_count + 1 WHERE sid = (SELECT MIN(sid) FROM sessions)');
  const found = await verify(db);
  assert.equal(found.code, 1, found.stderr);
  assert.match(found.stderr, /STORE_DAMAGED/);
  // Since migration 10 a finished block has no row of its own: message_search is empty and stays
  // consistent; body_search, the bodies' index, is the one found emptied.
  assert.deepEqual(codes(JSON.parse(found.stdout)), ['COUNT_MISMATCH', 'SEARCH_INDEX']);

  const repaired = await verify(db, '--repair');
  assert.equal(repaired.code, 0, repaired.stderr);
  const report = JSON.parse(repaired.stdout);
  assert.deepEqual(report.problems, []);
  assert.deepEqual(report.repaired, ['message_search rebuilt', 'body_search rebuilt', 'session counts recounted']);
  assert.equal(sql(db, 'SELECT COUNT(*) FROM messages'), messages);
  assert.equal((await verify(db)).code, 0, 'clean on the next check');
});

test('a damaged body, a missing blob and a looping parent link are found; --repair mends only the index and fails', { skip, timeout: 180000 }, async (t) => {
  const db = await written(t);
  // Every body indexed first (none left queued), so that the damaged one's old words are.
  assert.equal((await verify(db, '--repair')).code, 0);
  const messages = sql(db, 'SELECT COUNT(*) FROM messages');
  sql(db, "UPDATE messages SET body = X'7b7b7b' WHERE mid = (SELECT MAX(mid) FROM messages)");
  sql(db, "UPDATE messages SET parent_uuid = uuid WHERE mid = (SELECT MIN(mid) FROM messages)");
  sql(db, 'INSERT INTO blocks(sid, seq, idx, partial, blob_id) SELECT MIN(sid), 1000000, 0, 1, 987654 FROM sessions');
  // The index still holds the damaged body's old words until --repair rebuilds it.
  const cases = [[[], ['BLOB_MISSING', 'BODY_UNREADABLE', 'SEARCH_INDEX', 'TREE_BROKEN']], [['--repair'], ['BLOB_MISSING', 'BODY_UNREADABLE', 'TREE_BROKEN']]];
  for (const [args, want] of cases) {
    const run = await verify(db, ...args);
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(codes(report), want);
    assert.ok(report.problems.every((p) => p.damage));
  }
  assert.equal(sql(db, 'SELECT COUNT(*) FROM messages'), messages, 'no message deleted');
});
