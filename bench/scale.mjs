// scale.mjs: what a read costs in a small store and in a large one, on the SQLite file and on
// PostgreSQL (SESSIONKEEP_BENCH_PG_URL; make bench-scale starts a throwaway server on loopback).
//
//   node bench/scale.mjs [--small 1000] [--sessions 100000] [--messages 2000000]
//                        [--projects 20] [--only sqlite,postgres] [--data DIR]
//
// Each store is filled with --small sessions, measured, then filled on to --sessions and
// measured again, --messages / --sessions messages a session (prompts and answers of 100 B to
// 4 KB of words, a few with a rarer word to search for), spread over --projects projects.
// Measured at each size, in a process that opens the store afresh (so its RSS is a reader's,
// not the filler's), the median of 25 calls: a project's 50 newest sessions (fewer when the
// small store has fewer a project), a session's last 20 messages and its whole restore, a
// search for a word in the same 10 messages at both sizes (so the answer does not grow with
// the store) and one for a word in 1 message in 200 (whose hits do), the reader's RSS; then
// append-until-durable: --appenders processes (4) each writing --appending sessions (8) at
// once, a W1 turn into each and its flush() awaited, for --append-seconds (10), p50 and p99 of
// a turn's flush and the appenders' largest RSS; and the store's size. The last column is the
// cost at the large size over the cost at the small one, which must stay at most 1.5x. The
// defaults (100,000 sessions, 2,000,000 messages) take hours on a 2-core machine: pass
// smaller sizes for a quick look, and say so with the figures.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { quantile, turn } from './w1-turn.mjs';

const require = createRequire(import.meta.url);
const { openStore } = require('../dist/index.js');

function options(argv) {
  const o = { small: 1000, sessions: 100000, messages: 2000000, projects: 20, only: ['sqlite', 'postgres'],
    data: path.join(os.tmpdir(), 'sessionkeep-scale'), appenders: 4, appending: 8, appendSeconds: 10 };
  for (let i = 0; i < argv.length; i += 2) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--small': o.small = Number(v); break;
      case '--sessions': o.sessions = Number(v); break;
      case '--messages': o.messages = Number(v); break;
      case '--projects': o.projects = Number(v); break;
      case '--only': o.only = v.split(','); break;
      case '--data': o.data = v; break;
      case '--appenders': o.appenders = Number(v); break;
      case '--appending': o.appending = Number(v); break;
      case '--append-seconds': o.appendSeconds = Number(v); break;
      case '--role': return { role: v, args: argv.slice(i + 2) }; // a child: its own arguments follow
      default: throw new Error(`scale.mjs: unknown option ${argv[i]}`);
    }
  }
  if (!(o.small > 0 && o.sessions > o.small && o.messages >= o.sessions)) {
    throw new Error('scale.mjs: needs 0 < --small < --sessions <= --messages');
  }
  return o;
}

/** rng is a small seeded generator, so that every run writes the same sessions. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => ((x ^= x << 13, x ^= x >>> 17, x ^= x << 5) >>> 0) / 2 ** 32;
}

const WORDS = 'the a store session message agent tool read write file test build error fix change run'.split(' ');

/** text is a message of 100 B to 4 KB of words; one in 200 holds the word searched for. */
function text(r) {
  const words = [];
  for (let n = 100 + Math.floor(r() ** 3 * 3900); n > 0; n -= 6) words.push(WORDS[Math.floor(r() * WORDS.length)]);
  if (r() < 0.005) words.push('kingfisher');
  return words.join(' ');
}

/**
 * fill adds sessions until the store holds `to`, each with `perSession` messages; the first
 * message of every `tenth` session below `small` also holds the word "osprey", which is
 * thus in the same 10 messages however large the store grows.
 */
async function fill(store, from, to, perSession, projects, small) {
  const r = rng(from + 1);
  const tenth = Math.ceil(small / 10);
  for (let i = from; i < to; i++) {
    const s = store.createSession({ projectPath: `/work/project-${i % projects}`, title: `session ${i}` });
    for (let m = 0; m < perSession; m++) s.appendUserMessage(m === 0 && i < small && i % tenth === 0 ? `${text(r)} osprey` : text(r));
    s.close();
    if (i % 200 === 199) await store.flush();
  }
  await store.flush();
}

/** median is the median time of 25 calls of fn, in ms, after one untimed call. */
async function median(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < 25; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[12];
}

/**
 * reads is a child process's part: it opens the store at `at` afresh and takes the reads'
 * costs on it, listing `listed` sessions of a project (as many at both sizes, so that the
 * growth is the store's, not the answer's), and prints them with its RSS as JSON.
 */
async function reads([at, count, projects, listed]) {
  const store = openStore(at);
  // A search first indexes every message still waiting (both backends index off the
  // writer's commits): the reads are measured on a store at rest, not during that work.
  await store.searchAsync('kingfisher', { limit: 1 });
  const project = `/work/project-${(Number(count) - 1) % Number(projects)}`;
  const [newest] = store.listSessions({ projectPath: project, limit: 1 });
  const costs = {
    [`list a project (${listed} newest)`]: await median(() => store.listSessions({ projectPath: project, limit: Number(listed) })),
    'tail 20 of a session': await median(() => {
      const s = store.openSession(newest.id);
      s.tail(20);
      s.close();
    }),
    'restore a session': await median(async () => {
      const s = store.openSession(newest.id);
      await s.messagesAsync();
      s.close();
    }),
    'search a word in 10 messages': await median(() => store.search('osprey', { limit: 10 })),
    'search a word in 1 message in 200 (hits grow with the store)': await median(() => store.search('kingfisher', { limit: 10 })),
    'RSS of a reader': process.memoryUsage().rss / 2 ** 20,
  };
  store.close();
  process.stdout.write(`${JSON.stringify(costs)}\n`);
}

/**
 * appender is a child process's part: `sessions` new sessions of the store at `at` written at
 * once until `until` (ms since the epoch), a W1 turn into each then its flush() awaited, over
 * and over. It prints every flush's time and its largest RSS as JSON.
 */
async function appender([at, until, seed, sessions]) {
  const store = openStore(at);
  const flushes = [];
  const writeOne = async (k) => {
    const s = store.createSession({ projectPath: '/work/appending', title: `appender ${seed}.${k}` });
    for (let n = 0; Date.now() < Number(until); n++) {
      turn(s, `${seed}_${k}`, n);
      const t0 = performance.now();
      await s.flush();
      flushes.push(performance.now() - t0);
    }
    s.close();
  };
  await Promise.all(Array.from({ length: Number(sessions) }, (_, k) => writeOne(k)));
  store.close();
  process.stdout.write(`${JSON.stringify({ flushes, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
}

/** child runs this script in a process of its own as `role` and resolves to what it printed. */
function child(role, ...args) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', role, ...args.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`scale.mjs ${role} exited with ${code}`))));
  });
}

/** measure takes the reads' costs and append-until-durable on a store of `count` sessions. */
async function measure(at, count, o, listed, size) {
  const costs = await child('reads', at, count, o.projects, listed);
  const until = Date.now() + 1500 + o.appendSeconds * 1000; // past every appender's start-up
  const runs = await Promise.all(Array.from({ length: o.appenders }, (_, i) => child('appender', at, until, i, o.appending)));
  const flushes = runs.flatMap((r) => r.flushes);
  return {
    ...costs,
    [`append until durable, p50 (${o.appenders} processes × ${o.appending} sessions)`]: quantile(flushes, 0.5),
    [`append until durable, p99 (${o.appenders} processes × ${o.appending} sessions)`]: quantile(flushes, 0.99),
    'RSS of an appender': Math.max(...runs.map((r) => r.maxRssMB)),
    size: size() / 2 ** 20,
  };
}

/** locations names where each backend's store lives, with a function giving its size. */
function location(backend, o) {
  if (backend === 'sqlite') {
    const file = path.join(o.data, 'scale.db');
    return { at: file, size: () => fs.readdirSync(o.data).filter((f) => f.startsWith('scale.db')).reduce((n, f) => n + fs.statSync(path.join(o.data, f)).size, 0) };
  }
  const server = process.env.SESSIONKEEP_BENCH_PG_URL;
  if (!server) throw new Error('scale.mjs: SESSIONKEEP_BENCH_PG_URL names no server (make bench-scale starts one)');
  const psql = (sql) => execFileSync('psql', [server, '-qtAc', sql], { encoding: 'utf8' }).trim();
  psql('DROP SCHEMA IF EXISTS bench_scale CASCADE');
  const url = new URL(server);
  url.searchParams.set('search_path', 'bench_scale');
  return { at: url.toString(), size: () => Number(psql(`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'bench_scale' AND c.relkind IN ('r', 'm')`)) };
}

async function main() {
  const o = options(process.argv.slice(2));
  if (o.role === 'reads') return reads(o.args);
  if (o.role === 'appender') return appender(o.args);
  const perSession = Math.floor(o.messages / o.sessions);
  const listed = Math.max(1, Math.min(50, Math.floor(o.small / o.projects)));
  console.log(`# scale: ${o.small.toLocaleString()} then ${o.sessions.toLocaleString()} sessions, ${perSession} messages each, ${o.projects} projects; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const backend of o.only) {
    fs.rmSync(o.data, { recursive: true, force: true });
    fs.mkdirSync(o.data, { recursive: true });
    const where = location(backend, o);
    const store = openStore(where.at);
    let t = Date.now();
    await fill(store, 0, o.small, perSession, o.projects, o.small);
    const fillSmall = Date.now() - t;
    const small = await measure(where.at, o.small, o, listed, where.size);
    t = Date.now();
    await fill(store, o.small, o.sessions, perSession, o.projects, o.small);
    const fillLarge = Date.now() - t;
    const large = await measure(where.at, o.sessions, o, listed, where.size);
    store.close();
    console.log(`\n## ${backend} (filled in ${(fillSmall / 1000).toFixed(1)} s, then ${(fillLarge / 1000).toFixed(1)} s)\n`);
    console.log(`| measure | ${o.small.toLocaleString()} sessions | ${o.sessions.toLocaleString()} sessions | growth | bound 1.5x |`);
    console.log('| --- | --- | --- | --- | --- |');
    for (const key of Object.keys(small)) {
      const unit = key.startsWith('RSS') || key === 'size' ? ' MB' : ' ms';
      const growth = large[key] / small[key];
      const bounded = key === 'size' || key.includes('hits grow') ? '' : growth <= 1.5 ? 'kept' : 'MISSED';
      console.log(`| ${key} | ${small[key].toFixed(2)}${unit} | ${large[key].toFixed(2)}${unit} | ${growth.toFixed(2)}x | ${bounded} |`);
    }
  }
  fs.rmSync(o.data, { recursive: true, force: true });
}

await main();
