// import.mjs measures the import of the real transcripts (../shared/fixtures/real: Claude Code
// transcripts with their subagents, and Codex rollouts) into a new store, and the resident
// memory an open store adds to a bare Node: through the addon alone, and through the package
// (whose JavaScript adds about 1 MB: what opening a store does not need loads on first use).
// Before the memory is measured the addon's pages are settled in the page cache (page-cache.mjs).
// Each measurement runs in fresh Node processes, RUNS times; medians are reported and written to DIR/import.json for bench/report.mjs.
//
//   node bench/import.mjs [--data DIR] [--source FOLDER]
//
// The import's time ("committed") is `await store.import(folder)`: reading, parsing and
// storing until every record is committed (a crash of the process loses none of them);
// "searchable" adds a search right after it, which waits until the import's records are
// indexed. Each CPU time, of every thread of the process, is printed beside it, since on a
// shared machine the wall time is noisy. The store's size is that of its files once closed,
// search index included. import.json's mbPerSecond is the committed rate,
// searchableMbPerSecond the other.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { settlePageCache } from './page-cache.mjs';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const RUNS = 5;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** jsonlBytes is the size of the .jsonl files under dir: what an import of dir reads. */
function jsonlBytes(dir) {
  let files = 0;
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.jsonl')) {
      files++;
      bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
    }
  }
  return { files, bytes };
}

/** storeBytes is the size of a closed store's files (the database, and a WAL if one is left). */
function storeBytes(db) {
  return ['', '-wal', '-shm'].reduce((n, ext) => n + (fs.existsSync(db + ext) ? fs.statSync(db + ext).size : 0), 0);
}

/** Each phase runs in a child process and returns numbers. */
const phases = {
  /** One import of source into a new store. */
  async import(source) {
    const { openStore } = require(path.join(ROOT, 'dist', 'index.js'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-import-'));
    const db = path.join(dir, 's.db');
    const store = openStore(db);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = await store.import(source);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0); // every thread's: the JS thread's and Go's
    // The import settles once committed; indexing for search follows it, and a search
    // waits for what is still to index: the import and that search are "searchable". The
    // word is in no transcript, so what is timed is the index, not ranking the hits.
    await store.searchAsync('nowhereinthetranscripts', { limit: 1 });
    const searchableMs = performance.now() - t0;
    const searchableCpu = process.cpuUsage(cpu0);
    store.close();
    const size = storeBytes(db);
    fs.rmSync(dir, { recursive: true, force: true });
    return {
      ms, cpuMs: (cpu.user + cpu.system) / 1000, searchableMs, searchableCpuMs: (searchableCpu.user + searchableCpu.system) / 1000,
      size, records: result.records, sessions: result.sessions.length,
    };
  },
};

// The memory phases run as `node -e` scripts of their own, so that what this file imports
// (child_process among them) is not counted in the bare Node they are measured against.
const memoryScripts = {
  bare: `console.log(JSON.stringify({ rss: process.memoryUsage().rss }))`,
  // the addon alone, a store opened through it
  addon: `const fs = require('fs'), os = require('os'), path = require('path');
    const addon = require(${JSON.stringify(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'))});
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-memory-'));
    const [h] = addon.openStore(path.join(dir, 's.db'));
    const rss = process.memoryUsage().rss;
    addon.storeClose(h);
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(JSON.stringify({ rss }))`,
  // the package, a store opened as an app does
  package: `const fs = require('fs'), os = require('os'), path = require('path');
    const { openStore } = require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))});
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-memory-'));
    const store = openStore(path.join(dir, 's.db'));
    const rss = process.memoryUsage().rss;
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(JSON.stringify({ rss }))`,
};

function memoryInChild(name) {
  const r = spawnSync(process.execPath, ['-e', memoryScripts[name]], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`memory ${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function inChild(phase, ...args) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--phase', phase, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function medians(rows) {
  const out = {};
  for (const k of Object.keys(rows[0])) out[k] = median(rows.map((r) => r[k]));
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
  const source = path.resolve(opt('--source', path.join(ROOT, '..', 'shared', 'fixtures', 'real')));
  fs.mkdirSync(data, { recursive: true });
  const runs = (phase, ...args) => Array.from({ length: RUNS }, () => inChild(phase, ...args));
  const read = jsonlBytes(source);
  const mb = (n) => (n / 1e6).toFixed(2);

  const imp = medians(runs('import', source));
  const mbPerSecond = read.bytes / 1e6 / (imp.ms / 1000);
  const searchableMbPerSecond = read.bytes / 1e6 / (imp.searchableMs / 1000);
  console.log(`import: ${read.files} files, ${mb(read.bytes)} MB read and committed in ${imp.ms.toFixed(0)} ms: ${mbPerSecond.toFixed(1)} MB/s ` +
    `(${imp.records} records, ${imp.sessions} sessions; CPU ${imp.cpuMs.toFixed(0)} ms)`);
  console.log(`import: searchable (indexed, first search answered) in ${imp.searchableMs.toFixed(0)} ms: ${searchableMbPerSecond.toFixed(1)} MB/s ` +
    `(CPU ${imp.searchableCpuMs.toFixed(0)} ms)`);
  console.log(`import: store ${mb(imp.size)} MB, ${(imp.size / read.bytes).toFixed(2)}× the JSONL it holds (search index included)`);

  // The memory phases load the addon: its file as a normal read leaves it in the page cache,
  // not as the linker just wrote it (which maps more resident).
  settlePageCache(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'));
  const memoryRuns = (name) => medians(Array.from({ length: RUNS }, () => memoryInChild(name)));
  const bare = memoryRuns('bare');
  const addon = memoryRuns('addon');
  const pkg = memoryRuns('package');
  console.log(`memory: bare Node ${mb(bare.rss)} MB; a store open through the addon alone +${mb(addon.rss - bare.rss)} MB, ` +
    `through the package +${mb(pkg.rss - bare.rss)} MB`);

  const result = {
    runs: RUNS, source, files: read.files, bytes: read.bytes,
    import: { ms: imp.ms, cpuMs: imp.cpuMs, mbPerSecond, searchableMs: imp.searchableMs, searchableCpuMs: imp.searchableCpuMs, searchableMbPerSecond, records: imp.records, sessions: imp.sessions, storeBytes: imp.size, storeRatio: imp.size / read.bytes },
    memory: { bareRss: bare.rss, addonRss: addon.rss, packageRss: pkg.rss, addonOverBare: addon.rss - bare.rss, packageOverBare: pkg.rss - bare.rss },
  };
  fs.writeFileSync(path.join(data, 'import.json'), JSON.stringify(result, null, 2));
}

await main();
