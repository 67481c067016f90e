// wal-bound.mjs: does the write-ahead log stay bounded while a store is written for a long
// time? The shared bench's W1 (500 turns, 57,000 chunks, 2,000 messages) runs on repeat into
// one long-lived store, a new session each round, flushed at its end, the oldest sessions
// deleted beyond the last KEEP so the file itself stays small; beside it a reader process
// lists the sessions, tails the newest and restores a finished one whole, as a resume
// picker or a second agent would: readers are what keep a WAL from being reset. Every
// --every seconds the parent samples the size of sessions.db-wal, and the resident memory of
// the writer and the reader (Linux's /proc). It prints the WAL's maximum and percentiles and
// each process's largest RSS in each quarter of the run (flat when nothing accumulates) as
// JSON (also written to <data>/wal-bound.json).
//
//   node bench/wal-bound.mjs [--seconds 3600] [--every 2] [--data build/bench-wal]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const HARNESS = path.join(import.meta.dirname, '..', '..', 'shared', 'bench');
const KEEP = 8;

const { values } = parseArgs({ options: {
  seconds: { type: 'string', default: '3600' },
  every: { type: 'string', default: '2' },
  data: { type: 'string', default: 'build/bench-wal' },
  role: { type: 'string' },
} });
const data = path.resolve(values.data);
const db = path.join(data, 'sessions.db');

/** writeOnRepeat runs W1 into the store until the parent stops it, printing one line a round. */
async function writeOnRepeat() {
  const { openStore } = require('../dist/index.js');
  const { chunks } = await import(path.join(HARNESS, 'gen.mjs'));
  const { open } = await import('./adapter.mjs');
  const events = [...chunks({ turns: 500, seed: 'conv-500' })];
  const store = open(data);
  const admin = openStore(db);
  for (let round = 0; ; round++) {
    const t0 = performance.now();
    const w = store.session(`w1-${round}`);
    for (const ev of events) w.push(ev);
    w.end();
    try {
      await store.sync();
      const old = admin.listSessions({ fields: ['id', 'updatedAt'] }).slice(KEEP);
      for (const s of old) await admin.deleteSessionAsync(s.id);
    } catch (err) {
      if (err.code !== 'SQLITE_BUSY') throw err;
      console.log(JSON.stringify({ failed: err.code })); // its writes stay queued, retried
    }
    console.log(JSON.stringify({ round, ms: Math.round(performance.now() - t0) }));
  }
}

/**
 * readAlongside reads the store as a second process would, until the parent stops it. A read
 * that meets the writer's lock held past the bound (SQLITE_BUSY: on a loaded machine, under
 * nice, a transaction can hold it that long) or a session deleted under it is counted on
 * stdout and the reader goes on, as a picker would on its next refresh.
 */
async function readAlongside() {
  const { openStore } = require('../dist/index.js');
  const store = openStore(db);
  for (let i = 0; ; i++) {
    try {
      const list = store.listSessions({ fields: ['id', 'messageCount'] });
      if (list.length > 0) {
        const s = store.openSession(list[0].id);
        s.tail(20);
        s.close();
      }
      if (i % 25 === 0 && list.length > 1) {
        const s = store.openSession(list[1].id);
        await s.envelopesAsync();
        s.close();
      }
    } catch (err) {
      if (err.code !== 'SQLITE_BUSY' && err.code !== 'SESSION_NOT_FOUND') throw err;
      console.log(JSON.stringify({ failed: err.code }));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** residentMB is a process's resident memory now, from /proc (null where there is none). */
function residentMB(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** quarterPeaks is the largest of each quarter of a run's samples. */
function quarterPeaks(samples) {
  const q = Math.ceil(samples.length / 4);
  return [0, 1, 2, 3].map((i) => Math.max(...samples.slice(i * q, (i + 1) * q).filter((v) => v !== null)));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  if (values.role === 'writer') return writeOnRepeat();
  if (values.role === 'reader') return readAlongside();
  fs.rmSync(data, { recursive: true, force: true });
  fs.mkdirSync(data, { recursive: true });
  const child = (role) => spawn(process.execPath, [import.meta.filename, '--role', role, '--data', data], { stdio: ['ignore', 'pipe', 'inherit'] });
  const writer = child('writer');
  let rounds = 0;
  const roundMs = [];
  const writesFailed = {};
  createInterface({ input: writer.stdout }).on('line', (line) => {
    const { ms, failed } = JSON.parse(line);
    if (failed) {
      writesFailed[failed] = (writesFailed[failed] ?? 0) + 1;
      return;
    }
    rounds++;
    roundMs.push(ms);
  });
  await new Promise((r) => setTimeout(r, 1000)); // the writer creates the store first
  const reader = child('reader');
  const readsFailed = {};
  createInterface({ input: reader.stdout }).on('line', (line) => {
    const { failed } = JSON.parse(line);
    readsFailed[failed] = (readsFailed[failed] ?? 0) + 1;
  });
  const failed = new Promise((_, reject) => {
    for (const c of [writer, reader]) c.on('exit', (code, sig) => reject(new Error(`a ${c === writer ? 'writer' : 'reader'} stopped: ${code ?? sig}`)));
  });
  const samples = [];
  const rss = { writer: [], reader: [] };
  const end = Date.now() + Number(values.seconds) * 1000;
  const sample = async () => {
    while (Date.now() < end) {
      let size = 0;
      try { size = fs.statSync(`${db}-wal`).size; } catch { /* no WAL at this instant */ }
      samples.push(size);
      rss.writer.push(residentMB(writer.pid));
      rss.reader.push(residentMB(reader.pid));
      await new Promise((r) => setTimeout(r, Number(values.every) * 1000));
    }
  };
  await Promise.race([sample(), failed]);
  for (const c of [writer, reader]) { c.removeAllListeners('exit'); c.kill('SIGTERM'); }
  const sorted = [...samples].sort((a, b) => a - b);
  const MB = (b) => +(b / 1e6).toFixed(2);
  const result = {
    seconds: Number(values.seconds), samples: samples.length, rounds, writesFailed, readsFailed,
    roundMsMedian: [...roundMs].sort((a, b) => a - b)[roundMs.length >> 1],
    walMB: { max: MB(sorted.at(-1)), p50: MB(percentile(sorted, 50)), p90: MB(percentile(sorted, 90)), p99: MB(percentile(sorted, 99)) },
    dbMB: MB(fs.statSync(db).size),
    rssMBByQuarter: { writer: quarterPeaks(rss.writer), reader: quarterPeaks(rss.reader) },
  };
  fs.writeFileSync(path.join(data, 'wal-bound.json'), JSON.stringify({ ...result, samplesBytes: samples }));
  console.log(JSON.stringify(result));
}

await main();
