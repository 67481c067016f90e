// `sessionkeep import`: a folder of real Claude Code transcripts into a store that does not
// exist yet, again without duplicates, and with a progress bar on a real terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, runNode, storeLocation } from './helpers/common.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const CLAUDE_CODE = path.join(ROOT, '..', 'shared', 'fixtures', 'real', 'claude_code');

/** jsonRecords counts the lines of the .jsonl files in dir that hold a JSON value. */
function jsonRecords(dir) {
  let n = 0;
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      try {
        if (line.trim()) n += JSON.parse(line) !== undefined ? 1 : 0;
      } catch {
        // a comment line some fixture authors added; not a record
      }
    }
  }
  return n;
}

const tempDB = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-import-cli-')), 'new', 'sessions.db');

test('import creates the store, reports every session, and a second run adds nothing', async () => {
  const db = tempDB();
  const first = await runNode(BIN, ['import', CLAUDE_CODE, '--db', storeLocation(db), '--json']);
  assert.equal(first.code, 0, first.stderr);
  const [result] = JSON.parse(first.stdout);
  assert.equal(result.source, CLAUDE_CODE);
  assert.equal(result.records, jsonRecords(CLAUDE_CODE), 'every JSON line of every file is a record');
  assert.doesNotMatch(first.stderr, /\r/, 'no progress bar off a terminal');

  const store = openStore(db);
  try {
    const listed = store.listSessions({ includeArchived: true }).map((s) => s.id).sort();
    assert.deepEqual(listed, [...result.sessions].sort());
  } finally {
    store.close();
  }

  const again = await runNode(BIN, ['import', CLAUDE_CODE, '--db', storeLocation(db)]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`${result.sessions.length} sessions, 0 records added, ${result.records} already stored`));
});

test('import draws a progress bar on a terminal', () => {
  const db = tempDB();
  const cmd = [process.execPath, BIN, 'import', CLAUDE_CODE, '--db', storeLocation(db)].map((a) => `'${a}'`).join(' ');
  const run = spawnSync('script', ['-qfec', cmd, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '100' } });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /\rimporting .*claude_code \[[=> ]+\] \d+\.\d MB \/ \d+\.\d MB  \d+\.\d MB\/s/);
  assert.match(run.stdout, /sessions, \d+ records added, 0 already stored/);
});

test('import --progress writes the bytes done off a terminal, a line at each tenth', async () => {
  const db = tempDB();
  const run = await runNode(BIN, ['import', CLAUDE_CODE, '--db', storeLocation(db), '--progress']);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('importing '));
  assert.ok(lines.length >= 2 && lines.length <= 11, run.stderr);
  for (const l of lines) assert.match(l, /^importing .*claude_code: \d+%  \d+\.\d MB \/ \d+\.\d MB/);
  assert.match(lines.at(-1), /: 100%  (\d+\.\d MB) \/ \1/);
  assert.doesNotMatch(run.stderr, /\r/, 'no redrawing off a terminal');
});

test('import names a bad format and a missing path', async () => {
  const db = tempDB();
  const bad = await runNode(BIN, ['import', CLAUDE_CODE, '--db', storeLocation(db), '--format', 'pdf']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of claude-code, codex, gemini, opencode, aider, jsonl, json, not "pdf"/);
  const missing = await runNode(BIN, ['import', path.join(CLAUDE_CODE, 'no-such-file.jsonl'), '--db', storeLocation(db)]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /sessionkeep import: .*\(FILE_ERROR\)/);
});
