// A Claude Code transcript of 24 MB (a real fixture's records repeated with fresh ids, as
// make bench-big makes its gigabytes) is streamed into the store: the import's peak RSS
// stays under a bound a whole-file read breaks (it held 13-17 times the file), and an
// import SIGKILLed half way through the file, then run again, ends with every record once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { helper, storeLocation, sqliteFileOnly, tempDir } from './helpers/common.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const REAL = path.join(ROOT, '..', 'shared', 'fixtures', 'real', 'claude_code');
const MB = 24;
const RSS_BOUND_MB = 250; // streamed: ~150 MB; read whole: ~350 MB for 21 MB (bench/README.md)

/** bigTranscript writes the 24 MB transcript into dir from the largest real one. */
function bigTranscript(dir) {
  const source = fs.readdirSync(REAL).filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(REAL, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  const out = path.join(dir, 'big.jsonl');
  const made = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'big-transcript.mjs'), '--from', source, '--out', out, '--mb', String(MB)], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return out;
}

/**
 * importInChild runs helpers/import-child.mjs; with killAt (a fraction of the bytes) it
 * SIGKILLs the child once a progress report passes it. It resolves with the progress
 * reports and the final line, if the child got that far.
 */
function importInChild(file, db, { killAt } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [helper('import-child.mjs'), file, storeLocation(db), 'claude-code'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const reports = [];
    let final;
    let text = '';
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdout.on('data', (d) => {
      text += d;
      const lines = text.split('\n');
      text = lines.pop();
      for (const line of lines) {
        const v = JSON.parse(line);
        if (v.result) final = v;
        else reports.push(v);
        if (killAt && !v.result && v.bytesDone >= v.bytesTotal * killAt) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, reports, final, stderr }));
  });
}

test('a 24 MB transcript streams: peak RSS under a whole read\'s, killed half way and run again it holds every record once', { skip: sqliteFileOnly('the peak RSS of an import into a SQLite file') }, async (t) => {
  const dir = tempDir(t);
  const file = bigTranscript(dir);

  const clean = await importInChild(file, path.join(dir, 'clean.db'));
  assert.equal(clean.code, 0, clean.stderr);
  const records = clean.final.result.records;
  assert.ok(records > 10000, `${records} records`);
  assert.ok(clean.final.maxRssMB < RSS_BOUND_MB, `peak RSS ${clean.final.maxRssMB} MB, bound ${RSS_BOUND_MB} MB`);
  // progress goes in bytes through the file as it is stored, not at once
  const between = clean.reports.filter((p) => p.bytesDone > 0 && p.bytesDone < p.bytesTotal);
  assert.ok(between.length >= 3, `${between.length} progress reports within the file`);

  const resumed = path.join(dir, 'resumed.db');
  const killed = await importInChild(file, resumed, { killAt: 0.5 });
  assert.equal(killed.signal, 'SIGKILL', 'the first import was killed, not finished');
  const again = await importInChild(file, resumed);
  assert.equal(again.code, 0, again.stderr);
  const { result, counts } = again.final;
  assert.ok(result.existing > 0, 'the killed import had stored part of the file');
  assert.ok(result.records > 0, 'the rerun added the rest');
  assert.equal(result.records + result.existing, records, 'every record once: kept or added');
  assert.deepEqual(counts, clean.final.counts, 'the same sessions and message counts as the clean import');
});
