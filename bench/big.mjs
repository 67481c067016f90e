// make bench-big: sessionkeep on histories of the sizes users report. A Claude Code transcript
// and a Codex rollout of each size in --sizes (MB), generated from the real fixtures' shapes
// with fresh ids (bench/big-transcript.mjs, into --data, never committed), are imported each in
// a process of its own: its peak RSS (Node and the Go addon together) and Node's and Go's
// own peaks, MB/s over each 256 MB slice of the file (by the wall clock and by the process's
// CPU seconds), and an import killed once half the
// bytes are stored then run again (records afterwards against a clean import's: no
// duplicates); --formats picks which of the two. Then a 100 MB tool output and a 50 MB image are ingested,
// restored and exported, each step's peak RSS in its own process. Prints one table; the
// figures also go to <data>/big.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: {
  data: { type: 'string', default: 'build/bench-big' },
  sizes: { type: 'string', default: '2048' },
  formats: { type: 'string', default: 'claude-code,codex' },
  fixtures: { type: 'string', default: path.join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'real') },
} });
const here = import.meta.dirname;
const data = path.resolve(values.data);
fs.mkdirSync(data, { recursive: true });
const largest = (dir) => path.join(dir, fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))
  .sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0]);
const SOURCES = { 'claude-code': largest(path.join(values.fixtures, 'claude_code')), codex: largest(path.join(values.fixtures, 'codex')) };

/**
 * run runs a step of big-child.mjs; killAtBytes SIGKILLs it once a progress report of its
 * import passes that fraction of the bytes.
 */
function run(args, { killAtBytes } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, 'big-child.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let killed = false;
    child.stdout.on('data', (d) => {
      out += d;
      if (!killAtBytes || killed) return;
      const last = out.slice(0, out.lastIndexOf('\n')).split('\n').at(-1) ?? '';
      const [tag, done, total] = last.split(' ');
      if (tag === 'P' && Number(done) >= Number(total) * killAtBytes) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (killed) return resolve({ killed: true });
      if (code !== 0) return reject(new Error(`big-child ${args.join(' ')} exited ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

/**
 * slices is MB/s over each slice of sliceMB of the bytes (the last one shorter), from the
 * progress marks: a streamed import reports bytes as it stores them. clock is the mark's
 * element to divide by: 0 the wall clock, 2 the process's CPU seconds (what the import
 * costs, whatever else the machine runs meanwhile).
 */
function slices(marks, bytes, clock = 0, sliceMB = 256) {
  const step = Math.min(sliceMB * 1048576, bytes / 4);
  const rates = [];
  let prev = marks.find(([, b]) => b > 0) ?? [0, 0, 0]; // the first reading (a streamed file's) is before it
  prev = [prev[0], 0, prev[2]];
  for (let edge = step; prev[1] < bytes; edge += step) {
    const m = marks.find(([, b]) => b >= Math.min(edge, bytes)) ?? marks.at(-1);
    if (m[1] <= prev[1]) break;
    rates.push(+(((m[1] - prev[1]) / 1048576) / Math.max(m[clock] - prev[clock], 1e-3)).toFixed(1));
    prev = m;
  }
  return rates;
}

const results = { imports: [], payloads: [] };
for (const mb of values.sizes.split(',').map(Number)) {
  for (const format of values.formats.split(',')) {
    const source = SOURCES[format];
    if (!source) throw new Error(`--formats: ${format} is not one of ${Object.keys(SOURCES).join(', ')}`);
    const file = path.join(data, `${format}-${mb}.jsonl`);
    if (!fs.existsSync(file)) {
      await new Promise((resolve, reject) => spawn(process.execPath, [path.join(here, 'big-transcript.mjs'), '--from', source, '--out', file, '--mb', String(mb)], { stdio: 'inherit' })
        .on('close', (c) => (c === 0 ? resolve() : reject(new Error('big-transcript failed')))));
    }
    const bytes = fs.statSync(file).size;
    const db = path.join(data, `${format}-${mb}.db`);
    for (const f of fs.readdirSync(data)) if (f.startsWith(path.basename(db))) fs.rmSync(path.join(data, f));
    const clean = await run(['import', file, db, format]);
    const resumed = `${db}-resumed`;
    for (const f of fs.readdirSync(data)) if (f.startsWith(path.basename(resumed))) fs.rmSync(path.join(data, f));
    // Killed once half the file's bytes are stored (a streamed import stores as it reads);
    // the rerun finds what the killed one committed (existing) and adds the rest.
    const killed = await run(['import', file, resumed, format], { killAtBytes: 0.5 });
    const again = await run(['import', file, resumed, format]);
    const row = {
      format, mb: +(bytes / 1048576).toFixed(0), seconds: +clean.seconds.toFixed(1), mbPerSec: +(bytes / 1048576 / clean.seconds).toFixed(1),
      firstReading: +(clean.marks.find(([, b]) => b > 0)?.[0] ?? 0).toFixed(1), slices: slices(clean.marks, bytes),
      cpuSlices: slices(clean.marks, bytes, 2), cpuByGB: slices(clean.marks, bytes, 2, 1024),
      maxRssMB: clean.maxRssMB, nodeMB: clean.nodeMB, goMB: clean.goMB, rssPerFileMB: +(clean.maxRssMB / (bytes / 1048576)).toFixed(2),
      records: clean.records, killedHalfWay: killed.killed === true, rerunExisting: again.existing, rerunRecords: again.records + again.existing,
      duplicates: again.records + again.existing - clean.records,
    };
    results.imports.push(row);
    console.log(JSON.stringify(row));
  }
}

for (const [kind, mb] of [['tool output', 100], ['image', 50]]) {
  const db = path.join(data, `payload-${mb}.db`);
  for (const f of fs.readdirSync(data)) if (f.startsWith(path.basename(db))) fs.rmSync(path.join(data, f));
  const ingest = await run(['ingest', db, kind === 'image' ? 'image' : 'text', String(mb)]);
  const restore = await run(['restore', db]);
  const exported = await run(['export', db, path.join(data, `payload-${mb}`)]);
  const row = { kind, mb, ingestRssMB: ingest.maxRssMB, restoreRssMB: restore.maxRssMB, exportRssMB: exported.maxRssMB,
    nodeMB: [ingest.nodeMB, restore.nodeMB, exported.nodeMB], goMB: [ingest.goMB, restore.goMB, exported.goMB],
    ingestSeconds: +ingest.seconds.toFixed(1), restoreSeconds: +restore.seconds.toFixed(1), exportSeconds: +exported.seconds.toFixed(1) };
  results.payloads.push(row);
  console.log(JSON.stringify(row));
}
fs.writeFileSync(path.join(data, 'big.json'), JSON.stringify(results, null, 2));

console.log('\nimport        MB      s  MB/s  1st reading s  MB/s by 256 MB slice         peak MB: RSS / Node / Go  RSS/file  records  killed half way: kept, duplicates');
console.log('              MB per CPU second by 256 MB slice (the import alone, whatever else runs), and by gigabyte');
for (const r of results.imports) {
  console.log(`${r.format.padEnd(11)} ${String(r.mb).padStart(5)} ${String(r.seconds).padStart(6)} ${String(r.mbPerSec).padStart(5)} ${String(r.firstReading).padStart(14)}  ${r.slices.join(' / ').padEnd(28)} ${`${r.maxRssMB} / ${r.nodeMB} / ${r.goMB}`.padStart(24)} ${String(r.rssPerFileMB).padStart(9)} ${String(r.records).padStart(8)}  ${r.killedHalfWay ? `${r.rerunExisting} kept` : 'finished first'}, ${r.duplicates}`);
  console.log(`${''.padEnd(14)}${r.cpuSlices.join(' / ')}`);
  console.log(`${''.padEnd(14)}by GB: ${r.cpuByGB.join(' / ')}`);
}
console.log('\npayload          MB  peak RSS MB: ingest / restore / export   Node MB            Go MB              seconds: ingest / restore / export');
for (const r of results.payloads) {
  console.log(`${r.kind.padEnd(14)} ${String(r.mb).padStart(4)}  ${`${r.ingestRssMB} / ${r.restoreRssMB} / ${r.exportRssMB}`.padEnd(38)} ${r.nodeMB.join(' / ').padEnd(18)} ${r.goMB.join(' / ').padEnd(18)} ${r.ingestSeconds} / ${r.restoreSeconds} / ${r.exportSeconds}`);
}
