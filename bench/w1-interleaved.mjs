// w1-interleaved.mjs runs the harness's W1 (open, push the 57,000 chunks of 500 turns,
// sync, close) in a fresh process per ingest, the stores in turn each round, so that the
// load of a shared machine falls on every store alike; round 0 is a warm-up. It prints each
// store's median wall time, median process CPU time and the size of its folder after close.
//
//   node bench/w1-interleaved.mjs ROUNDS name=/abs/adapter.mjs[:VAR@value] ...
//   node bench/w1-interleaved.mjs 9 sqlite=$PWD/build/shared-bench/baseline-sqlite.mjs \
//     jsonl=$PWD/build/shared-bench/baseline-jsonl.mjs sk=$PWD/bench/adapter.mjs
//
// An adapter is any module the harness's BENCH_STORES takes; VAR@value sets an environment
// variable for that store's processes only. The harness (build/shared-bench) is `make bench`'s.
// With W1_JS_THREAD=1 each push is timed and their sum (the JS thread's time in the store's
// code, native calls included) is printed too; the timing then weighs on the wall time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS = fileURLToPath(import.meta.url);
const HARNESS = path.join(path.dirname(THIS), '..', 'build', 'shared-bench');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** ingest runs one W1 into dir through the adapter and prints its figures as JSON. */
async function ingest(adapter, dir) {
  const { chunks, uuidFactory } = await import(path.join(HARNESS, 'gen.mjs'));
  const store = await import(adapter);
  const events = [...chunks({ turns: 500, seed: 'conv-500' })];
  const id = uuidFactory('w1')();
  fs.rmSync(dir, { recursive: true, force: true });
  globalThis.gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const s = store.open(dir);
  const w = s.session(id);
  let js = 0;
  if (process.env.W1_JS_THREAD) {
    for (let i = 0; i < events.length; i++) {
      const a = performance.now();
      w.push(events[i]);
      js += performance.now() - a;
    }
  } else {
    for (let i = 0; i < events.length; i++) w.push(events[i]);
  }
  w.end();
  await s.sync();
  await s.close();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const bytes = fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
  console.log(JSON.stringify({ ms, cpu: (cpu.user + cpu.system) / 1000, bytes, js }));
}

async function main() {
  if (process.argv[2] === '--one') return ingest(process.argv[3], process.argv[4]);
  const rounds = Number(process.argv[2]);
  const stores = process.argv.slice(3).map((spec) => {
    const [name, rest] = spec.split('=');
    const [adapter, env] = rest.split(':');
    return { name, adapter, env: env ? Object.fromEntries([env.split('@')]) : {}, ms: [], cpu: [], js: [], bytes: 0 };
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-w1-'));
  for (let r = 0; r <= rounds; r++) {
    for (const s of stores) {
      const p = spawnSync(process.execPath, ['--expose-gc', THIS, '--one', s.adapter, path.join(root, s.name)],
        { env: { ...process.env, ...s.env }, encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`${s.name}: ${p.stderr}`);
      const o = JSON.parse(p.stdout.trim().split('\n').pop());
      if (r > 0) { s.ms.push(o.ms); s.cpu.push(o.cpu); s.js.push(o.js); }
      s.bytes = o.bytes;
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  for (const s of stores) {
    const js = process.env.W1_JS_THREAD ? `, JS thread ${median(s.js).toFixed(0)} ms (${s.js.map((x) => x.toFixed(0)).join(' ')})` : '';
    console.log(`${s.name.padEnd(12)} ${median(s.ms).toFixed(0)} ms, CPU ${median(s.cpu).toFixed(0)} ms, ${(s.bytes / 1e6).toFixed(2)} MB${js}   runs ${s.ms.map((x) => x.toFixed(0)).join(' ')}`);
  }
}

await main();
