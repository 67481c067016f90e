// `sessionkeep debug-context`: seed 004's /debug context from the command line, on a real
// Claude Code transcript: what the next call would be sent at a roomy and at a tight window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode, storeLocation } from './helpers/common.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const TRANSCRIPT = path.join(ROOT, '..', 'shared', 'fixtures', 'real', 'claude_code',
  'DRMacIver__claude-reliability__snapshot-tests__tests__python-to-rust-port__transcript.jsonl');

async function importedSession() {
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-debug-context-')), 'sessions.db');
  const run = await runNode(BIN, ['import', TRANSCRIPT, '--db', storeLocation(db), '--json']);
  assert.equal(run.code, 0, run.stderr);
  return { db, id: JSON.parse(run.stdout)[0].sessions[0] };
}

test('debug-context reports the strategy, the budget and what was sent, as data and as text', async () => {
  const { db, id } = await importedSession();
  const roomy = await runNode(BIN, ['debug-context', id.slice(0, 8), '--db', storeLocation(db), '--json']);
  assert.equal(roomy.code, 0, roomy.stderr);
  const report = JSON.parse(roomy.stdout);
  assert.equal(report.strategy, 'full-history');
  assert.equal(report.budget.contextWindow, 200000, 'the default window for a session that records none');
  assert.ok(report.tokensUsed <= report.budget.availableTokens);
  assert.equal(report.text, undefined, 'the text form is for people');

  const tight = await runNode(BIN, ['debug-context', id, '--db', storeLocation(db), '--window', '8000', '--json']);
  const small = JSON.parse(tight.stdout);
  assert.notEqual(small.strategy, 'full-history', 'the history does not fit 8K');
  assert.ok(small.tokensUsed <= small.budget.availableTokens, `${small.tokensUsed} > ${small.budget.availableTokens}`);
  assert.ok(small.summarizedMessageCount + small.prunedMessageCount > 0);
  assert.equal(small.compactionDue, true);

  const text = await runNode(BIN, ['debug-context', id, '--db', storeLocation(db), '--window', '8000']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^Context for anthropic: strategy ${small.strategy}\\n`));
  assert.match(text.stdout, /skipped full-history: does not fit/);
  assert.match(text.stdout, /Budget: 8,000 window/);
});

test('debug-context names bad options', async () => {
  const { db, id } = await importedSession();
  const format = await runNode(BIN, ['debug-context', id, '--db', storeLocation(db), '--format', 'gemini']);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--format must be anthropic or openai/);
  const window = await runNode(BIN, ['debug-context', id, '--db', storeLocation(db), '--window', 'big']);
  assert.equal(window.code, 2);
  const missing = await runNode(BIN, ['debug-context', 'ffffffff', '--db', storeLocation(db)]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /SESSION_NOT_FOUND/);
});
