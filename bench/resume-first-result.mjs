// resume-first-result.mjs measures what an agent that resumes pays on the JS thread: opening
// a session whose last turn ends with a tool call another process made, and ingesting the
// first tool_result, which answers that call (each a synchronous call: its time is the
// event-loop delay it causes). Every measurement runs in a fresh Node process.
//
//   node bench/resume-first-result.mjs [--rounds N] [--against CHECKOUT]
//
// --against names another built checkout (e.g. main's): the two are measured in alternating
// pairs, in turn first (ABBA), so that a loaded machine and the order weigh on both alike,
// and the pairs each side won are counted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const us = () => process.hrtime.bigint();
const ms = (t0) => Number(us() - t0) / 1e6;

/** prepare records 20 turns of a prompt, a reply with a tool call and its result, the last unanswered. */
function prepare(root, db) {
  const { openStore } = createRequire(import.meta.url)(path.join(root, 'dist', 'index.js'));
  const store = openStore(db);
  const s = store.createSession({ projectPath: '/p' });
  for (let i = 0; i < 20; i++) {
    s.appendUserMessage(`step ${i}`);
    s.ingest({ type: 'message_start', id: `m${i}` });
    s.ingest({ type: 'text', text: 'x'.repeat(2000) });
    s.ingest({ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `f${i}` } });
    s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
    if (i < 19) s.ingest({ type: 'tool_result', toolUseId: `toolu_${i}`, content: 'y'.repeat(4000) });
  }
  store.close();
  return { id: s.id };
}

/** resume opens the session and answers its last call, timing both. */
function resume(root, db, id) {
  const { openStore } = createRequire(import.meta.url)(path.join(root, 'dist', 'index.js'));
  const store = openStore(db);
  let t0 = us();
  const s = store.openSession(id);
  const open = ms(t0);
  try { s.ingest({ type: 'tool_use_delta', partialJson: '{}' }); } catch {} // warms the ingest path, recording nothing
  t0 = us();
  s.ingest({ type: 'tool_result', toolUseId: 'toolu_19', content: 'ok' });
  const first = ms(t0);
  store.close();
  return { open, first };
}

function inChild(root, phase, ...args) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--phase', phase, root, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function measure(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-resume-'));
  try {
    const db = path.join(dir, 's.db');
    const { id } = inChild(root, 'prepare', db);
    return inChild(root, 'resume', db, id);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv[0] === '--phase') {
  const [, phase, root, ...args] = argv;
  console.log(JSON.stringify(phase === 'prepare' ? prepare(root, ...args) : resume(root, ...args)));
} else {
  const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
  const rounds = Number(opt('--rounds', 10));
  const sides = { this: path.join(HERE, '..') };
  if (opt('--against')) sides.against = path.resolve(opt('--against'));
  const names = Object.keys(sides);
  const got = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 ? [...names].reverse() : names) got[n].push(measure(sides[n]));
  }
  const out = {};
  for (const n of names) {
    out[n] = { openMs: median(got[n].map((x) => x.open)), firstResultMs: median(got[n].map((x) => x.first)) };
  }
  if (sides.against) {
    out.pairsThisWon = {
      open: got.this.filter((x, i) => x.open < got.against[i].open).length,
      firstResult: got.this.filter((x, i) => x.first < got.against[i].first).length,
      of: rounds,
    };
  }
  out.load = os.loadavg();
  console.log(JSON.stringify(out, null, 2));
}
