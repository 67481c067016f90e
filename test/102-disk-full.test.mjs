// A full disk: a store on a 4 MB tmpfs filled while a session streams. Ingest goes on in
// memory, DISK_FULL surfaces once through onError and through flush(), nothing committed
// is lost, and once space returns the queued messages commit and flush() resolves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, sleep, sqliteFileOnly } from './helpers/common.mjs';
import { mountTmpfs, fill } from './helpers/tmpfs.mjs';
import { script, apply } from './helpers/torture-script.mjs';
import { integrity } from './helpers/torture-kill.mjs';
import { verifyProblems } from './helpers/verify.mjs';

// The torture script's turns, 4 messages each; turnSteps(from, to) are the steps of turns from..to-1.
const TURNS = 4;
const STEPS = script(21, TURNS);
const turnSteps = (from, to) => STEPS.filter((s) => s.at.msg >= from * 4 && s.at.msg < to * 4);

test('a full disk: DISK_FULL once, ingest goes on, and the queue commits when space returns', { skip: sqliteFileOnly('the disk under the file fills up') }, async (t) => {
  const { dir, skipReason } = mountTmpfs(t, '4m');
  if (!dir) return t.skip(skipReason);
  const db = path.join(dir, 'full.db');
  const reported = [];
  const store = openStore(db, { onError: (e) => reported.push(e) });
  const s = store.createSession({ projectPath: '/work/full' });
  for (const step of turnSteps(0, 2)) apply(s, step);
  await s.flush();
  const before = s.messages();
  assert.equal(before.length, 8);

  const filler = path.join(dir, 'filler');
  fill(filler);
  for (const step of turnSteps(2, TURNS)) apply(s, step); // ingest never throws: it queues
  // More than the WAL's pages, which SQLite reuses, can take: the disk must give more. Random,
  // so that packing (a body over 4 KB is stored compressed) cannot make it small.
  const big = crypto.randomBytes(600 * 1024).toString('base64');
  s.appendUserMessage(big);
  await assert.rejects(s.flush(), { name: 'SessionError', code: 'DISK_FULL' });
  await assert.rejects(store.flush(), { code: 'DISK_FULL' });
  await sleep(500); // several retries and onError polls
  assert.equal(reported.length, 1, 'onError is called once for the run of failures');
  assert.equal(reported[0].code, 'DISK_FULL');
  assert.match(reported[0].message, /disk full/);

  fs.rmSync(filler);
  await s.flush(); // the retries commit what was queued
  const after = s.messages();
  assert.equal(after.length, TURNS * 4 + 1);
  assert.equal(after.at(-1).content[0].text, big);
  assert.deepEqual(after.slice(0, 8), before, 'what was committed before the disk filled is unchanged');
  const results = STEPS.filter((x) => x.chunk?.type === 'tool_result').map((x) => x.chunk.content);
  assert.deepEqual(after.flatMap((m) => m.content).filter((b) => b.type === 'tool_result').map((b) => b.content), results);
  assert.equal(reported.length, 1);
  store.close();

  assert.equal(integrity(db), 'ok');
  const again = openStore(db);
  assert.deepEqual(again.openSession(s.id).messages(), after);
  assert.deepEqual(await verifyProblems(again), [], 'the whole store checks clean');
  again.close();
});
