// Many processes, one store: writers streaming and flushing, a reader, and processes that
// create the store together, with no error reaching any caller and nothing lost. A lock is
// sessionkeep's to wait out (see docs/api.md, Guarantees).
// TORTURE_SECONDS sets how long the writers run (10 by default; `make torture` runs 60).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { openStore, tempDir, helper, runNode, ON_POSTGRES } from './helpers/common.mjs';
import { integrity } from './helpers/torture-kill.mjs';
import { verifyProblems } from './helpers/verify.mjs';

const SECONDS = Number(process.env.TORTURE_SECONDS ?? 10);
const WRITERS = 4;

async function runRole(role, db, until, seed = 0) {
  const r = await runNode(helper('torture-procs.mjs'), [role, db, String(until), String(seed)], { timeoutMs: (SECONDS + 90) * 1000 });
  assert.equal(r.code, 0, `${role} exited with ${r.code ?? r.signal}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test(`${WRITERS} writers and a reader on one store for ${SECONDS} s: 0 errors, 0 lost`, { timeout: (SECONDS + 120) * 1000 }, async (t) => {
  const db = path.join(tempDir(t), 'shared.db');
  openStore(db).close(); // the schema exists; the openers' test races to create it
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  const [reader, ...writers] = await Promise.all([
    runRole('reader', db, until),
    ...Array.from({ length: WRITERS }, (_, i) => runRole('writer', db, until, 100 + i)),
  ]);
  const errors = [...reader.errors, ...writers.flatMap((w) => w.errors)];
  const sessions = writers.flatMap((w) => w.sessions);
  const messages = sessions.reduce((n, s) => n + s.messages, 0);
  t.diagnostic(`${WRITERS + 1} processes × ${((Date.now() - started) / 1000).toFixed(1)} s: ${sessions.length} sessions, `
    + `${messages} messages written, ${reader.reads} session reads, ${errors.length} errors`);
  assert.deepEqual(errors, []);
  assert.ok(sessions.length >= WRITERS, 'every writer finished a session');
  assert.ok(reader.reads > 0, 'the reader read sessions');

  if (!ON_POSTGRES) assert.equal(integrity(db), 'ok'); // the file's own check
  const store = openStore(db);
  const listed = new Set(store.listSessions().map((i) => i.id));
  const lost = sessions.filter((w) => {
    if (!listed.has(w.id)) return true;
    const s = store.openSession(w.id);
    const got = s.messages();
    s.close();
    return got.length !== 8 || crypto.createHash('sha256').update(JSON.stringify(got)).digest('hex') !== w.hash;
  });
  const damage = await verifyProblems(store); // the whole store: indexes, bodies, counts, tree
  store.close();
  assert.deepEqual(damage, []);
  assert.deepEqual(lost, [], 'every session is listed with its 2 turns, as its writer read it');
});

test('5 processes creating a new store at the same moment all open it, 10 times over', { timeout: 120000 }, async (t) => {
  const dir = tempDir(t);
  for (let round = 0; round < 10; round++) {
    const db = path.join(dir, `new-${round}.db`);
    const until = Date.now() + 800; // past every opener's start-up, so they open together
    const openers = await Promise.all(Array.from({ length: 5 }, () => runRole('opener', db, until)));
    assert.deepEqual(openers.flatMap((o) => o.errors), [], `round ${round}`);
    const store = openStore(db);
    const listed = store.listSessions().map((i) => i.id).sort();
    store.close();
    assert.deepEqual(listed, openers.map((o) => o.id).sort(), `round ${round}: every opener's session is there`);
  }
});
