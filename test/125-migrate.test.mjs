// sessionkeep migrate: real Claude Code transcripts moved from a SQLite file to the store the
// backend switch names (PostgreSQL under SESSIONKEEP_TEST_BACKEND=postgres, another file
// otherwise) and back to a new SQLite file read the same byte for byte; a move SIGKILLed
// half-way and run again completes without a duplicate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sk, tempDir, runNode, storeLocation, sessionError } from './helpers/common.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const CLAUDE_CODE = path.join(ROOT, '..', 'shared', 'fixtures', 'real', 'claude_code');

/** everything reads all a store shows of every session: listing, records, snapshots, keys. */
function everything(location) {
  const store = sk.openStore(location);
  try {
    const out = {};
    for (const info of store.listSessions({ includeArchived: true })) {
      const s = store.openSession(info.id);
      try {
        const { lastAccessedAt, ...listing } = info; // opening to read it is an access
        out[info.id] = {
          listing,
          messages: JSON.stringify(s.messages()),
          envelopes: JSON.stringify(s.envelopes()),
          turns: s.turns(),
          tokenTracker: s.tokenTracker(),
          snapshots: s.fileSnapshots(),
          history: s.getHistory(),
        };
      } finally {
        s.close();
      }
    }
    return out;
  } finally {
    store.close();
  }
}

test('SQLite to the switched store and back to SQLite gives every session byte for byte', async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'source.db'); // a real SQLite file whatever the switch says
  const middle = storeLocation(path.join(dir, 'middle.db'));
  const back = path.join(dir, 'back.db');

  const store = sk.openStore(source);
  const imported = await store.import(CLAUDE_CODE);
  assert.ok(imported.sessions.length >= 5 && imported.records > 500, `imported ${imported.sessions.length} sessions`);
  // A hosted agent's keyed session with a checkpoint and history, and an archived one.
  const hosted = store.sessionByKey('acme:general:bot', { create: true });
  hosted.appendUserMessage('hello from the channel');
  hosted.commitCheckpoint(41);
  hosted.storeMessage('user', 'a stateless question');
  hosted.close();
  store.archiveSession(imported.sessions[0]);
  store.close();

  const there = await runNode(BIN, ['migrate', '--from', source, '--to', middle], { timeoutMs: 120000 });
  assert.equal(there.code, 0, there.stderr);
  const total = imported.sessions.length + 1;
  assert.match(there.stdout, new RegExp(`^${total} sessions moved: \\d+ records copied, 0 already there`));
  assert.match(there.stderr, new RegExp(`migrate: ${total}/${total} sessions`), 'progress a session a line');
  const home = await runNode(BIN, ['migrate', '--from', middle, '--to', back, '--json'], { timeoutMs: 120000 });
  assert.equal(home.code, 0, home.stderr);
  assert.equal(JSON.parse(home.stdout).sessionCount, total);

  const want = everything(source);
  assert.equal(Object.keys(want).length, total);
  assert.deepEqual(everything(middle), want, 'the switched store reads as the source');
  assert.deepEqual(everything(back), want, 'the round trip reads as the source');
  const keyed = Object.values(want).find((s) => s.listing.key === 'acme:general:bot');
  assert.equal(keyed.listing.checkpoint, 41);
  assert.equal(keyed.history.length, 1);
  assert.ok(Object.values(want).some((s) => s.snapshots.length > 0), 'the fixtures hold file snapshots');
});

test('a migrate SIGKILLed half-way and run again copies only what is missing', async (t) => {
  const dir = tempDir(t);
  const source = path.join(dir, 'source.db');
  const target = storeLocation(path.join(dir, 'target.db'));
  const store = sk.openStore(source);
  for (let i = 0; i < 300; i++) {
    const s = store.createSession({ projectPath: `/work/p${i % 7}` });
    for (let j = 0; j < 10; j++) s.appendUserMessage(`session ${i} prompt ${j}: ${'words '.repeat(20)}`);
    s.close();
  }
  await store.flush();
  store.close();

  // Killed right after it reports its first session, with most still to go.
  const killed = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'migrate', '--from', source, '--to', target], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      if (/migrate: \d+\/300/.test(err)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, err }));
  });
  assert.equal(killed.signal, 'SIGKILL', killed.err);
  const partial = sk.openStore(target);
  const copied = partial.listSessions({ includeArchived: true }).length;
  partial.close();
  assert.ok(copied > 0 && copied < 300, `the kill left ${copied} of 300 sessions`);

  const resumed = await runNode(BIN, ['migrate', '--from', source, '--to', target, '--json'], { timeoutMs: 180000 });
  assert.equal(resumed.code, 0, resumed.stderr);
  const result = JSON.parse(resumed.stdout);
  assert.equal(result.sessionCount, 300);
  assert.ok(result.existing >= copied - 1, `records already there: ${result.existing}`);
  assert.equal(result.records + result.existing, 3000, 'each record copied once over both runs');
  const want = everything(source);
  const got = everything(target);
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
  for (const [id, s] of Object.entries(got)) {
    const uuids = JSON.parse(s.envelopes).map((e) => e.uuid);
    assert.equal(new Set(uuids).size, 10, `session ${id}: no duplicate`);
    assert.equal(s.messages, want[id].messages);
  }
});

test('migrateTo names the sessions it moves by id in its reports, and counts them', async (t) => {
  const dir = tempDir(t);
  const store = sk.openStore(path.join(dir, 'a.db'));
  t.after(() => store.close());
  const ids = [0, 1, 2].map((i) => {
    const s = store.createSession({ projectPath: '/work/moved' });
    s.appendUserMessage(`prompt ${i}`);
    return s.id;
  });
  await store.flush();
  const target = sk.openStore(storeLocation(path.join(dir, 'b.db')));
  t.after(() => target.close());
  // Reports are coalesced while the JS thread is busy: each names a session moved, and the
  // last one says all three are done.
  const reports = [];
  const result = await store.migrateTo(target, { onProgress: (p) => reports.push(p) });
  assert.ok(reports.length > 0, 'at least one report');
  for (const p of reports) assert.ok(ids.includes(p.sessionId), `a report names ${p.sessionId}, not a moved session's id`);
  assert.deepEqual([reports.at(-1).sessionsDone, reports.at(-1).sessionsTotal], [3, 3]);
  assert.equal(result.sessionCount, 3);
  assert.deepEqual(result.skipped, []);
});

test('migrateTo refuses what is not a store, and a store into itself', async (t) => {
  const db = path.join(tempDir(t), 'a.db');
  const store = sk.openStore(db);
  t.after(() => store.close());
  await assert.rejects(store.migrateTo({}), TypeError);
  await assert.rejects(store.migrateTo(store), sessionError('INVALID_ARGUMENT'));
  const usage = await runNode(BIN, ['migrate', '--from', db]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--to/);
});
