// scale.mjs: what a read costs in a small store and in a large one, on the SQLite file and on
// PostgreSQL (SESSIONKEEP_BENCH_PG_URL; make bench-scale starts a throwaway server on loopback).
//
//   node bench/scale.mjs [--small 1000] [--sessions 100000] [--messages 2000000]
//                        [--projects 20] [--only sqlite,postgres] [--data DIR]
//
// Each store is filled with --small sessions, measured, then filled on to --sessions and
// measured again, --messages / --sessions messages a session (prompts and answers of 100 B to
// 4 KB of words, a few with a rarer word to search for), spread over --projects projects.
// Measured at each size, the median of 25 calls: a project's 50 newest sessions (fewer when
// the small store has fewer a project), a session's last 20 messages and its whole restore,
// a search, the process's RSS (of the process that filled the store), and the store's size.
// The last column is the cost at the large size over the cost at the small one, which must stay
// at most 1.5x. The defaults (100,000 sessions, 2,000,000 messages) take hours on a 2-core
// machine: pass smaller sizes for a quick look, and say so with the figures.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { openStore } = require('../dist/index.js');

function options(argv) {
  const o = { small: 1000, sessions: 100000, messages: 2000000, projects: 20, only: ['sqlite', 'postgres'],
    data: path.join(os.tmpdir(), 'sessionkeep-scale') };
  for (let i = 0; i < argv.length; i += 2) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--small': o.small = Number(v); break;
      case '--sessions': o.sessions = Number(v); break;
      case '--messages': o.messages = Number(v); break;
      case '--projects': o.projects = Number(v); break;
      case '--only': o.only = v.split(','); break;
      case '--data': o.data = v; break;
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

/** fill adds sessions until the store holds `to`, each with `perSession` messages. */
async function fill(store, from, to, perSession, projects) {
  const r = rng(from + 1);
  for (let i = from; i < to; i++) {
    const s = store.createSession({ projectPath: `/work/project-${i % projects}`, title: `session ${i}` });
    for (let m = 0; m < perSession; m++) s.appendUserMessage(text(r));
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
 * measure takes the reads' costs on a store of `count` sessions, listing `listed` sessions of
 * a project (as many at both sizes, so that the growth is the store's, not the answer's).
 */
async function measure(store, count, projects, listed, size) {
  // A search first indexes every message still waiting (both backends index off the
  // writer's commits): the reads are measured on a store at rest, not during that work.
  await store.searchAsync('kingfisher', { limit: 1 });
  const project = `/work/project-${(count - 1) % projects}`;
  const [newest] = store.listSessions({ projectPath: project, limit: 1 });
  return {
    [`list a project (${listed} newest)`]: await median(() => store.listSessions({ projectPath: project, limit: listed })),
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
    'search a rare word (10 hits)': await median(() => store.search('kingfisher', { limit: 10 })),
    rss: process.memoryUsage().rss / 2 ** 20,
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
  const perSession = Math.floor(o.messages / o.sessions);
  const listed = Math.max(1, Math.min(50, Math.floor(o.small / o.projects)));
  console.log(`# scale: ${o.small.toLocaleString()} then ${o.sessions.toLocaleString()} sessions, ${perSession} messages each, ${o.projects} projects; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const backend of o.only) {
    fs.rmSync(o.data, { recursive: true, force: true });
    fs.mkdirSync(o.data, { recursive: true });
    const where = location(backend, o);
    const store = openStore(where.at);
    let t = Date.now();
    await fill(store, 0, o.small, perSession, o.projects);
    const fillSmall = Date.now() - t;
    const small = await measure(store, o.small, o.projects, listed, where.size);
    t = Date.now();
    await fill(store, o.small, o.sessions, perSession, o.projects);
    const fillLarge = Date.now() - t;
    const large = await measure(store, o.sessions, o.projects, listed, where.size);
    store.close();
    console.log(`\n## ${backend} (filled in ${(fillSmall / 1000).toFixed(1)} s, then ${(fillLarge / 1000).toFixed(1)} s)\n`);
    console.log(`| measure | ${o.small.toLocaleString()} sessions | ${o.sessions.toLocaleString()} sessions | growth | bound 1.5x |`);
    console.log('| --- | --- | --- | --- | --- |');
    for (const key of Object.keys(small)) {
      const unit = key === 'rss' || key === 'size' ? ' MB' : ' ms';
      const growth = large[key] / small[key];
      const bounded = key === 'size' ? '' : growth <= 1.5 ? 'kept' : 'MISSED';
      console.log(`| ${key} | ${small[key].toFixed(2)}${unit} | ${large[key].toFixed(2)}${unit} | ${growth.toFixed(2)}x | ${bounded} |`);
    }
  }
  fs.rmSync(o.data, { recursive: true, force: true });
}

await main();
