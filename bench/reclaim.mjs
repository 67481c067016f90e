// reclaim.mjs: the space a schema migration leaves, measured on the shared bench's W2/W3
// store (its 500-turn and 5,000-turn sessions) written by an older sessionkeep. --old names
// a checkout of that version with its addon and dist built (see bench/README.md, "Space
// after a migration"); this file's adapter is copied into it, so the old version writes the
// sessions exactly as the harness has it write them. The store is then opened by this
// version, which migrates it, and closed: the file's size before and after, the free pages
// left, the time the open took and its process's peak RSS are printed as JSON.
//
//   node bench/reclaim.mjs --old /tmp/sessionkeep-old [--data build/bench-reclaim]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const HARNESS = path.join(import.meta.dirname, '..', '..', 'shared', 'bench');
const { values } = parseArgs({ options: {
  old: { type: 'string' },
  data: { type: 'string', default: 'build/bench-reclaim' },
  role: { type: 'string' },
} });
const data = path.resolve(values.data);
const db = path.join(data, 'sessions.db');

/** fill writes the W2/W3 sessions through the adapter copied into the old checkout. */
async function fill() {
  const { chunks } = await import(path.join(HARNESS, 'gen.mjs'));
  const { open } = await import(path.join(path.resolve(values.old), 'bench', 'reclaim-adapter.mjs'));
  const store = open(data);
  for (const turns of [500, 5000]) {
    const w = store.session(`conv-${turns}`);
    for (const ev of chunks({ turns, seed: `conv-${turns}` })) w.push(ev);
    w.end();
  }
  await store.sync();
  await store.close();
}

/** migrate opens the store with this version (which migrates it) and closes it. */
function migrate() {
  const { openStore } = createRequire(import.meta.url)('../dist/index.js');
  const t0 = performance.now();
  openStore(db).close();
  console.log(JSON.stringify({ ms: Math.round(performance.now() - t0), peakRSSMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

const sql = (statement) => spawnSync('sqlite3', [db, statement], { encoding: 'utf8' }).stdout.trim();
const size = () => fs.statSync(db).size;

function run(role) {
  const r = spawnSync(process.execPath, [import.meta.filename, '--role', role, '--old', values.old ?? '', '--data', data], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${role} exited ${r.status}`);
  return r.stdout.trim();
}

async function main() {
  if (values.role === 'fill') return fill();
  if (values.role === 'migrate') return migrate();
  if (!values.old) throw new Error('--old <checkout of an older sessionkeep, built> is required');
  fs.copyFileSync(path.join(import.meta.dirname, 'adapter.mjs'), path.join(values.old, 'bench', 'reclaim-adapter.mjs'));
  fs.rmSync(data, { recursive: true, force: true });
  fs.mkdirSync(data, { recursive: true });
  run('fill');
  const version = (q) => sql(`SELECT max(version) FROM schema_migrations`) + q;
  const before = { bytes: size(), schema: version(''), freePages: +sql('PRAGMA freelist_count') };
  const { ms, peakRSSMB } = JSON.parse(run('migrate'));
  const after = { bytes: size(), schema: version(''), freePages: +sql('PRAGMA freelist_count') };
  const MB = (b) => +(b / 1e6).toFixed(1);
  console.log(JSON.stringify({ beforeMB: MB(before.bytes), beforeSchema: before.schema, afterMB: MB(after.bytes), afterSchema: after.schema,
    freePagesAfter: after.freePages, walAfterMB: fs.existsSync(`${db}-wal`) ? MB(fs.statSync(`${db}-wal`).size) : 0, openMs: ms, openPeakRSSMB: peakRSSMB }));
}

await main();
