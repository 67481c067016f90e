// ours.mjs measures what ../shared/bench does not: the JS-thread cost of ingest per chunk,
// the event-loop delay while ingesting W1 and while restoring the 20,000-message session
// with the async API, the addon's load time, the memory a store adds to a bare Node, and
// the fixed cost of a read (a listing and a tail that return nothing).
// Each measurement runs in fresh Node processes, RUNS times; medians are reported.
//
//   node bench/ours.mjs --data DIR --out FILE [--against CHECKOUT [--interleaved-only]]
//
// DIR is the harness's --data folder (its datasets are reused: W1's chunks come from its
// generator, the 20,000-message session from its prepared sessionkeep store). --against
// names another built checkout (e.g. main's): the memory and event-loop phases then run for
// it too, in turn with this one's, so that a loaded machine weighs on both alike; its
// figures go under `against` in the output. It must read the store this checkout prepared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { settlePageCache } from './page-cache.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
// ROOT is the checkout measured: this one, or the one --against names (a child phase is
// told by SK_BENCH_ROOT). Its bench adapter is used, which loads its own package.
const ROOT = process.env.SK_BENCH_ROOT || path.join(HERE, '..');
// The harness (its generator) is always this checkout's, whichever checkout is measured.
const HARNESS = path.join(HERE, '..', 'build', 'shared-bench');
const RUNS = 5;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sk-ours-'));

/** Each phase runs in a child process and returns numbers. */
const phases = {
  /** Resident memory of a bare Node process. */
  bare() {
    return { rss: process.memoryUsage().rss };
  },

  /** Load time of the addon, then resident memory after opening a store and a session. */
  load() {
    const t0 = performance.now();
    require(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'));
    const load = performance.now() - t0;
    const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));
    const dir = tmp();
    const store = openStore(path.join(dir, 's.db'));
    store.createSession().appendUserMessage('hello');
    store.listSessions();
    const rss = process.memoryUsage().rss;
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return { load, rss };
  },

  /** JS-thread time per chunk of ingest, by kind (µs). */
  async ingest() {
    const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));
    const { chunks } = await import(path.join(HARNESS, 'gen.mjs'));
    const events = [...chunks({ turns: 100, seed: 'ours' })];
    const outputs = events.filter((e) => e.type === 'user_message' && e.message.content[0].type === 'tool_result')
      .flatMap((e) => e.message.content);
    const dir = tmp();
    const store = openStore(path.join(dir, 's.db'));
    const s = store.createSession();
    s.appendUserMessage('start');
    const per = (n, f) => { const t0 = performance.now(); for (let i = 0; i < n; i++) f(i); return ((performance.now() - t0) * 1000) / n; };
    const words = Array.from({ length: 64 }, (_, i) => `word ${i} of a delta `);
    // warm up every path once
    s.ingest({ type: 'text', text: 'x' });
    s.ingest({ type: 'tool_use', id: 'warm', name: 'Read', input: { file_path: '/a' } });
    s.ingest({ type: 'tool_result', toolUseId: 'warm', content: 'x' });
    await s.flush();
    const r = {};
    r.textDelta = per(20000, (i) => s.ingest({ type: 'text', text: words[i & 63] }));
    s.ingest({ type: 'done', stopReason: 'end_turn' });
    await s.flush();
    r.toolUse = per(2000, (i) => s.ingest({ type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/src/file_${i}.ts`, offset: i, limit: 400 } }));
    await s.flush();
    r.toolResult = per(outputs.length, (i) => s.ingest({ type: 'tool_result', toolUseId: `toolu_${i % 2000}`, content: outputs[i].content, isError: !!outputs[i].is_error }));
    await s.flush();
    r.toolResultMessage = per(outputs.length, (i) => s.appendUserMessage([{ ...outputs[i], tool_use_id: `toolu_${i % 2000}` }]));
    r.toolResultBytes = outputs.reduce((n, o) => n + Buffer.byteLength(o.content), 0) / outputs.length;
    await s.flush();
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return r;
  },

  /**
   * JS-thread time of each of W1's 57,000 chunks pushed through the bench adapter (its
   * translation included), timed one by one: the median and the 90th and 99th percentiles (µs).
   */
  async w1PerChunk() {
    const A = await import(path.join(ROOT, 'bench', 'adapter.mjs'));
    const { chunks } = await import(path.join(HARNESS, 'gen.mjs'));
    const events = [...chunks({ turns: 500, seed: 'conv-500' })];
    const dir = tmp();
    const st = A.open(dir);
    const w = st.session('w1');
    const times = new Float64Array(events.length);
    for (let i = 0; i < events.length; i++) {
      const t0 = performance.now();
      w.push(events[i]);
      times[i] = (performance.now() - t0) * 1000;
    }
    w.end();
    await st.sync();
    await st.close();
    fs.rmSync(dir, { recursive: true, force: true });
    times.sort();
    const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99), chunks: events.length };
  },

  /** W1 through the bench adapter with chunks arriving as a stream does: event-loop delay. */
  async w1Delay() {
    const A = await import(path.join(ROOT, 'bench', 'adapter.mjs'));
    const { chunks } = await import(path.join(HARNESS, 'gen.mjs'));
    const events = [...chunks({ turns: 500, seed: 'conv-500' })];
    const dir = tmp();
    const h = monitorEventLoopDelay({ resolution: 1 });
    const t0 = performance.now();
    h.enable();
    const st = A.open(dir);
    const w = st.session('w1');
    // A network read brings a few SSE events at a time; each read is its own macrotask.
    const perRead = 4;
    await new Promise((resolve) => {
      let i = 0;
      const step = () => {
        for (const end = Math.min(i + perRead, events.length); i < end; i++) w.push(events[i]);
        if (i < events.length) setImmediate(step);
        else resolve();
      };
      step();
    });
    w.end();
    await st.sync();
    await st.close();
    h.disable();
    const wall = performance.now() - t0;
    fs.rmSync(dir, { recursive: true, force: true });
    return { p99: h.percentile(99) / 1e6, max: h.max / 1e6, wall };
  },

  /**
   * Async restore of the 20,000-message session through the public API (envelopesAsync, not
   * the adapter, whose reshaping into the harness's envelopes is the harness's own work):
   * event-loop delay and wall time.
   */
  async restoreDelay(data) {
    const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));
    const m = JSON.parse(fs.readFileSync(path.join(data, 'prep', 'manifest.json'), 'utf8'));
    const dir = path.join(data, 'prep', 'sessionkeep', 'w23');
    const ours = new Map(fs.readFileSync(path.join(dir, 'bench-ids.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t')));
    const store = openStore(path.join(dir, 'sessions.db'));
    const s = store.openSession(ours.get(m.ids.s5000));
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const t0 = performance.now();
    const envs = await s.envelopesAsync();
    const wall = performance.now() - t0;
    h.disable();
    store.close();
    return { p99: h.percentile(99) / 1e6, max: h.max / 1e6, wall, messages: envs.length };
  },

  /**
   * Fixed cost of a read's whole path (bridge, Go, SQLite, JSON, JavaScript), by reads that
   * return nothing: a listing of an empty store and tail(0) of the 20,000-message session
   * (ms, median of 1,000). W3 and W4 minus these is what their rows cost.
   */
  readFixedCost(data) {
    const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));
    const median1000 = (f) => {
      for (let i = 0; i < 50; i++) f();
      const xs = [];
      for (let i = 0; i < 1000; i++) { const t = performance.now(); f(); xs.push(performance.now() - t); }
      return median(xs);
    };
    const dir = tmp();
    const empty = openStore(path.join(dir, 's.db'));
    const emptyList = median1000(() => empty.listSessions({ fields: ['id', 'title', 'messageCount', 'updatedAt'] }));
    empty.close();
    fs.rmSync(dir, { recursive: true, force: true });
    const m = JSON.parse(fs.readFileSync(path.join(data, 'prep', 'manifest.json'), 'utf8'));
    const w23 = path.join(data, 'prep', 'sessionkeep', 'w23');
    const ours = new Map(fs.readFileSync(path.join(w23, 'bench-ids.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t')));
    const store = openStore(path.join(w23, 'sessions.db'));
    const s = store.openSession(ours.get(m.ids.s5000));
    const tail0 = median1000(() => s.tail(0));
    store.close();
    return { emptyList, tail0 };
  },
};

function inChild(phase, ...args) {
  return inChildOf(undefined, phase, ...args);
}

/** inChildOf runs phase in a child process measuring checkout root (this one if undefined). */
function inChildOf(root, phase, ...args) {
  return inChildWith(root, [], phase, ...args);
}

/**
 * SMALL_YOUNG_GENERATION is the Node flag docs/api.md suggests to an application that must
 * answer within a few ms while a long session is restored: V8's young-generation
 * collections, which copy the restored messages, are the restore's longest event-loop waits.
 */
const SMALL_YOUNG_GENERATION = '--max-semi-space-size=4';

/** inChildWith is inChildOf with Node started with nodeFlags as well. */
function inChildWith(root, nodeFlags, phase, ...args) {
  const env = root ? { ...process.env, SK_BENCH_ROOT: root } : process.env;
  const argv = [...nodeFlags, '--expose-gc', fileURLToPath(import.meta.url), '--phase', phase, ...args];
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 24, env });
  if (r.status !== 0) throw new Error(`${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function medians(rows) {
  const out = {};
  for (const k of Object.keys(rows[0])) out[k] = median(rows.map((r) => r[k]));
  return out;
}

/**
 * interleaved measures memory and the event-loop delays of this checkout and of checkout
 * other in turn, RUNS rounds, and returns medians for both: { ours: {...}, theirs: {...} }.
 */
function interleaved(other, data, log) {
  const rounds = { ours: { load: [], w1: [], restore: [] }, theirs: { load: [], w1: [], restore: [] } };
  for (const root of [ROOT, other]) settlePageCache(path.join(root, 'build', 'Release', 'sessionkeep.node'));
  for (let i = 0; i < RUNS; i++) {
    for (const [who, root] of [['ours', undefined], ['theirs', other]]) {
      rounds[who].load.push(inChildOf(root, 'load'));
      rounds[who].w1.push(inChildOf(root, 'w1Delay'));
      rounds[who].restore.push(inChildOf(root, 'restoreDelay', data));
    }
    log(`ours: interleaved with ${other}, round ${i + 1} of ${RUNS}\n`);
  }
  const out = {};
  for (const who of ['ours', 'theirs']) {
    const r = rounds[who];
    out[who] = { load: medians(r.load), w1: medians(r.w1), restore: medians(r.restore), w1P99s: r.w1.map((x) => x.p99), restoreP99s: r.restore.map((x) => x.p99) };
  }
  log(`ours: interleaved p99 W1 ${out.ours.w1.p99.toFixed(2)} against ${out.theirs.w1.p99.toFixed(2)} ms, ` +
    `restore ${out.ours.restore.p99.toFixed(2)} against ${out.theirs.restore.p99.toFixed(2)} ms\n`);
  return out;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--phase') {
    console.log(JSON.stringify(await phases[argv[1]](...argv.slice(2))));
    return;
  }
  const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
  const data = path.resolve(opt('--data', path.join(ROOT, 'build', 'bench-data')));
  const out = opt('--out', path.join(data, 'ours.json'));
  const runs = (phase, ...args) => Array.from({ length: RUNS }, () => inChild(phase, ...args));
  const log = (s) => process.stdout.write(s);
  if (argv.includes('--interleaved-only')) { // the comparison alone, for working on the delays
    fs.writeFileSync(out, JSON.stringify(interleaved(path.resolve(opt('--against')), data, log), null, 2));
    return;
  }
  log('ours: load and memory ...');
  settlePageCache(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'));
  const bare = medians(runs('bare'));
  const load = medians(runs('load'));
  log(` ${load.load.toFixed(2)} ms, +${((load.rss - bare.rss) / 1e6).toFixed(1)} MB\nours: ingest per chunk ...`);
  const ingest = medians(runs('ingest'));
  log(` text delta ${ingest.textDelta.toFixed(2)} µs\nours: W1 chunk by chunk ...`);
  const perChunk = medians(runs('w1PerChunk'));
  log(` median ${perChunk.p50.toFixed(2)} µs\nours: event-loop delay during W1 ...`);
  const w1 = medians(runs('w1Delay'));
  log(` p99 ${w1.p99.toFixed(2)} ms\nours: event-loop delay during async restore of 20,000 messages ...`);
  const restore = medians(runs('restoreDelay', data));
  log(` p99 ${restore.p99.toFixed(2)} ms\nours: the same with ${SMALL_YOUNG_GENERATION} ...`);
  const restoreSmallYoung = medians(Array.from({ length: RUNS }, () => inChildWith(undefined, [SMALL_YOUNG_GENERATION], 'restoreDelay', data)));
  log(` p99 ${restoreSmallYoung.p99.toFixed(2)} ms\nours: fixed cost of a read ...`);
  const fixed = medians(runs('readFixedCost', data));
  log(` empty listing ${(fixed.emptyList * 1000).toFixed(1)} µs, tail(0) ${(fixed.tail0 * 1000).toFixed(1)} µs\n`);
  const result = { runs: RUNS, bare, load, ingest, perChunk, w1, restore, restoreSmallYoung, smallYoungFlag: SMALL_YOUNG_GENERATION, fixed };
  const againstRoot = opt('--against');
  if (againstRoot) result.against = { root: againstRoot, ...interleaved(path.resolve(againstRoot), data, log) };
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}

await main();
