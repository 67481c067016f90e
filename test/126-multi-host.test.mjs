// Three hosts, one PostgreSQL store: three processes, each with its own connection pool,
// write and read the store for MULTI_HOST_SECONDS (60 by default): 0 sessions lost, 0
// records duplicated, every session valid. Then a host is SIGKILLed mid-stream and another
// resumes its session and writes to it. It runs in the PostgreSQL run of the suite
// (SESSIONKEEP_TEST_BACKEND=postgres): several hosts on one SQLite file is test/101.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { openStore, tempDir, helper, runNode, storeLocation, ON_POSTGRES } from './helpers/common.mjs';

const SECONDS = Number(process.env.MULTI_HOST_SECONDS ?? 60);
const HOSTS = 3;
const skip = !ON_POSTGRES && 'several hosts need a server: this runs with SESSIONKEEP_TEST_BACKEND=postgres';

async function host(location, until, seed) {
  const r = await runNode(helper('multi-host-child.mjs'), ['host', location, String(until), String(seed)], { timeoutMs: (SECONDS + 90) * 1000 });
  assert.equal(r.code, 0, `host ${seed} exited with ${r.code ?? r.signal}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test(`${HOSTS} hosts write and read one store for ${SECONDS} s: 0 lost, 0 duplicated, all valid`, { skip, timeout: (SECONDS + 180) * 1000 }, async (t) => {
  const location = storeLocation(path.join(tempDir(t), 'hosts.db'));
  openStore(location).close(); // the schema exists before the hosts start
  const started = Date.now();
  const until = started + SECONDS * 1000;
  const hosts = await Promise.all(Array.from({ length: HOSTS }, (_, i) => host(location, until, 300 + i)));
  const errors = hosts.flatMap((h) => h.errors);
  const written = hosts.flatMap((h) => h.sessions);
  const reads = hosts.reduce((n, h) => n + h.reads, 0);
  t.diagnostic(`${HOSTS} hosts × ${((Date.now() - started) / 1000).toFixed(1)} s: ${written.length} sessions, `
    + `${written.reduce((n, s) => n + s.messages, 0)} messages written, ${reads} reads of another host's sessions, ${errors.length} errors`);
  assert.deepEqual(errors, []);
  assert.deepEqual(hosts.flatMap((h) => h.invalid), [], 'every session another host read was valid');
  assert.ok(hosts.every((h) => h.sessions.length > 0 && h.reads > 0), 'every host wrote and read');

  const store = openStore(location);
  try {
    const listed = store.listSessions({ includeArchived: true });
    assert.equal(listed.length, written.length, 'no session lost, none made twice');
    const byId = new Map(written.map((w) => [w.id, w]));
    for (const info of listed) {
      const s = store.openSession(info.id);
      const messages = s.messages();
      const uuids = s.envelopes().map((e) => e.uuid);
      s.close();
      const w = byId.get(info.id);
      assert.ok(w, `session ${info.id} was written by a host`);
      assert.equal(messages.length, 8, `session ${info.id}: its 2 turns`);
      assert.equal(new Set(uuids).size, uuids.length, `session ${info.id}: no record twice`);
      assert.equal(createHash('sha256').update(JSON.stringify(messages)).digest('hex'), w.hash, `session ${info.id} reads as its host read it`);
    }
  } finally {
    store.close();
  }
});

test('a host SIGKILLed mid-stream: another host resumes its session and writes to it', { skip, timeout: 120000 }, async (t) => {
  const location = storeLocation(path.join(tempDir(t), 'takeover.db'));
  const streamed = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [helper('multi-host-child.mjs'), 'stream', location, '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let first;
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (first === undefined && out.includes('\n')) {
        first = JSON.parse(out.slice(0, out.indexOf('\n')));
        setTimeout(() => child.kill('SIGKILL'), 150); // mid-message: it streams every 2 ms
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (first ? resolve({ ...first, signal }) : reject(new Error(`the streamer ended early (${code ?? signal}): ${err}`))));
  });
  assert.equal(streamed.signal, 'SIGKILL');
  assert.deepEqual(streamed.errors, []);

  const r = await runNode(helper('multi-host-child.mjs'), ['resume', location, streamed.id], { timeoutMs: 60000 });
  assert.equal(r.code, 0, r.stderr);
  const resumed = JSON.parse(r.stdout);
  assert.deepEqual(resumed.errors, [], 'the other host opened, read and wrote the session');
  assert.ok(resumed.before >= streamed.durable, `the ${streamed.durable} durable messages are there (${resumed.before} read)`);
  assert.ok(resumed.valid, 'the context built after is valid: the cut-off call answered');
  assert.equal(resumed.last.role, 'assistant');
  assert.match(resumed.last.content.at(-1).text, /interrupted/);

  const store = openStore(location);
  const s = store.openSession(streamed.id);
  const messages = s.messages();
  s.close();
  store.close();
  assert.equal(messages.length, resumed.after, 'a third reader sees what the resuming host wrote');
});
