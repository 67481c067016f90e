// Many writers on one PostgreSQL store, each a process with a pool of its own: two appending
// to one session, four asking for one hosted agent's key, checkpoints out of order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { helper, openStore, runNodeJSON } from './helpers/common.mjs';
import { freshPgURL, skipWithoutPG } from './helpers/pg.mjs';

const child = helper('pg-child.mjs');

/** onCue runs pg-child with args, its lines to read in order and a cue to write it. */
function onCue(args) {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let buffered = '';
  const waiting = [];
  proc.stdout.setEncoding('utf8').on('data', (d) => {
    buffered += d;
    for (let i; (i = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(i + 1)) lines.push(JSON.parse(buffered.slice(0, i)));
    for (const w of waiting.splice(0)) w();
  });
  const line = async (n) => {
    const deadline = Date.now() + 20000;
    while (lines.length <= n) {
      if (Date.now() > deadline) throw new Error(`pg-child ${args[0]}: no line ${n} in 20 s`);
      await new Promise((r) => { waiting.push(r); setTimeout(r, 200); });
    }
    return lines[n];
  };
  return { line, cue: () => proc.stdin.end('go\n') };
}

test('two processes appending to one session: the second is refused with the code SQLite gives', { skip: skipWithoutPG }, async (t) => {
  const url = freshPgURL();
  const store = openStore(url);
  t.after(() => store.close());
  const s = store.createSession({ title: 'contended' });
  await store.flush();
  // Both open the session (both will write from seq 0) before either writes.
  const writers = ['first', 'second'].map((who) => onCue(['append-on-cue', url, s.id, who, '5']));
  await Promise.all(writers.map((w) => w.line(0)));
  for (const w of writers) w.cue();
  const results = await Promise.all(writers.map((w) => w.line(1)));
  const refused = results.filter((r) => !r.ok);
  // Both start at seq 0: whichever commits second conflicts with every message of the other.
  assert.equal(refused.length, 1, JSON.stringify(results));
  assert.equal(refused[0].code, 'SESSION_CONFLICT');
  assert.match(refused[0].message, /another process/);
  const texts = openStore(url).openSession(s.id).messages().map((m) => m.content[0].text);
  assert.equal(texts.length, 5, 'the winner\'s messages, none of the loser\'s');
  const writer = texts[0].split(' ')[0];
  assert.deepEqual(texts, Array.from({ length: 5 }, (_, i) => `${writer} ${i}`));
});

test('sessionByKey from four processes at once makes one session', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  openStore(url).close(); // the schema exists before the race, as on a running service
  const ids = await Promise.all(Array.from({ length: 4 }, () => runNodeJSON(child, ['bykey', url, 'acme:general:bot'])));
  assert.equal(new Set(ids.map((r) => r.id)).size, 1, JSON.stringify(ids));
  const store = openStore(url);
  try {
    assert.equal(store.listSessions().length, 1);
  } finally {
    store.close();
  }
});

test('a checkpoint never moves backwards, whatever order workers commit in', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  for (const id of [7, 42, 9]) await runNodeJSON(child, ['checkpoint', url, 'acme:general:bot', String(id)]);
  const store = openStore(url);
  try {
    assert.equal(store.sessionByKey('acme:general:bot').checkpoint, 42);
  } finally {
    store.close();
  }
});

test('a message written by one worker is seen by the next that opens the session', { skip: skipWithoutPG }, async () => {
  const url = freshPgURL();
  const { id } = await runNodeJSON(child, ['bykey', url, 'acme:general:bot']);
  const store = openStore(url);
  try {
    const s = store.openSession(id);
    s.appendUserMessage('from worker one');
    await store.flush();
  } finally {
    store.close();
  }
  const { ok } = await runNodeJSON(child, ['append', url, id, 'worker two', '1']);
  assert.equal(ok, true, 'the second worker continues after the first\'s message');
  const after = openStore(url);
  try {
    assert.deepEqual(after.openSession(id).messages().map((m) => m.content[0].text), ['from worker one', 'worker two 0']);
  } finally {
    after.close();
  }
});
