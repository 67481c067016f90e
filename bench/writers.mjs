// writers.mjs: the throughput of WRITERS processes (8 by default) streaming into one store at
// once, each with its own connection pool, on the SQLite file and on PostgreSQL
// (SESSIONKEEP_BENCH_PG_URL; make bench starts a throwaway server on loopback).
//
//   node bench/writers.mjs [--writers 8] [--seconds 20] [--only sqlite|postgres] [--data DIR]
//
// Each writer records turns like the shared bench's W1 (a prompt, an assistant message of
// 60 streamed deltas and a tool call, a 6 KB tool result, a short answer) into sessions of
// 10 turns, and awaits flush() after every turn, so that what is counted is durable. It
// prints one line per store: turns and messages per second over all writers, MB/s of
// message text, and the median and p99 of a turn's flush.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { quantile, turn } from './w1-turn.mjs';

function options(argv) {
  const o = { writers: 8, seconds: 20, only: ['sqlite', 'postgres'], data: path.join(os.tmpdir(), 'sessionkeep-writers') };
  for (let i = 0; i < argv.length; i += 2) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--writers': o.writers = Number(v); break;
      case '--seconds': o.seconds = Number(v); break;
      case '--only': o.only = v.split(','); break;
      case '--data': o.data = v; break;
      case '--child': return { child: true, location: v, until: Number(argv[i + 2]), seed: Number(argv[i + 3]) };
      default: throw new Error(`writers.mjs: unknown option ${argv[i]}`);
    }
  }
  return o;
}

async function child({ location, until, seed }) {
  const require = createRequire(import.meta.url);
  const { openStore } = require('../dist/index.js');
  const store = openStore(location);
  let turns = 0;
  let bytes = 0;
  const flushes = [];
  while (Date.now() < until) {
    const s = store.createSession({ projectPath: `/bench/writer${seed}` });
    for (let n = 0; n < 10 && Date.now() < until; n++) {
      bytes += turn(s, seed, turns);
      const t0 = performance.now();
      await s.flush();
      flushes.push(performance.now() - t0);
      turns++;
    }
    s.close();
  }
  store.close();
  process.stdout.write(JSON.stringify({ turns, bytes, flushes }) + '\n');
}

function runChild(location, until, seed) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', location, String(until), String(seed)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer ${seed} exited with ${code}`))));
  });
}

async function measure(label, location, o) {
  const started = Date.now() + 1500; // past every writer's start-up
  const until = started + o.seconds * 1000;
  const runs = await Promise.all(Array.from({ length: o.writers }, (_, i) => runChild(location, until, i)));
  const turns = runs.reduce((n, r) => n + r.turns, 0);
  const bytes = runs.reduce((n, r) => n + r.bytes, 0);
  const flushes = runs.flatMap((r) => r.flushes);
  const secs = o.seconds;
  const line = `${label.padEnd(10)} ${o.writers} writers × ${secs} s: ${(turns / secs).toFixed(0)} turns/s, ${(turns * 4 / secs).toFixed(0)} messages/s, `
    + `${(bytes / secs / 1e6).toFixed(1)} MB/s of text, flush per turn median ${quantile(flushes, 0.5).toFixed(1)} ms, p99 ${quantile(flushes, 0.99).toFixed(1)} ms`;
  console.log(line);
  return { label, writers: o.writers, seconds: secs, turns, bytes, medianFlushMs: quantile(flushes, 0.5), p99FlushMs: quantile(flushes, 0.99) };
}

const o = options(process.argv.slice(2));
if (o.child) {
  await child(o);
} else {
  fs.mkdirSync(o.data, { recursive: true });
  const results = [];
  if (o.only.includes('sqlite')) {
    const dir = fs.mkdtempSync(path.join(o.data, 'sqlite-'));
    results.push(await measure('sqlite', path.join(dir, 'writers.db'), o));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (o.only.includes('postgres')) {
    if (!process.env.SESSIONKEEP_BENCH_PG_URL) throw new Error('writers.mjs: SESSIONKEEP_BENCH_PG_URL names no server (make bench starts one)');
    const url = new URL(process.env.SESSIONKEEP_BENCH_PG_URL);
    url.searchParams.set('search_path', `writers_${crypto.randomBytes(6).toString('hex')}`);
    results.push(await measure('postgres', url.toString(), o));
  }
  fs.writeFileSync(path.join(o.data, 'writers.json'), JSON.stringify(results, null, 2));
}
