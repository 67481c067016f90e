// The sessionkeep command line, run as users run it (node dist/cli/main.js, the package's
// bin), on a store of 1,000 sessions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, runNode, storeLocation } from './helpers/common.mjs';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(BIN), '..', '..', 'package.json'), 'utf8'));
const ANSI = /\x1b\[/;

let dir;
let db;
let ids; // newest last
let tooled; // the session with a tool call and a long result
let needle; // the only session that mentions the flux capacitor

/** cli runs the real bin and resolves with its exit code and output; it is killed after timeoutMs. */
function cli(args, env = {}, timeoutMs = 20000) {
  const base = { ...process.env };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'SESSIONKEEP_DB', 'SESSIONKEEP_PRICES']) delete base[name];
  return runNode(BIN, args, { env: { ...base, ...env }, timeoutMs });
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-cli-'));
  db = path.join(dir, 'sessions.db');
  const store = openStore(db);
  ids = [];
  for (let i = 0; i < 1000; i++) {
    const s = store.createSession({ projectPath: `/work/p${i % 10}`, model: 'claude-sonnet-4-5' });
    s.appendUserMessage(i === 500 ? 'Why does the flux capacitor overheat?' : `Task number ${i}`);
    if (i === 999) {
      s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
      s.ingest({ type: 'text', text: 'Let me look.' });
      s.ingest({ type: 'tool_use', id: 'toolu_ls', name: 'bash', input: { command: 'ls -1 src' } });
      s.ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 1200, output_tokens: 40 } });
      s.ingest({ type: 'tool_result', toolUseId: 'toolu_ls', content: Array.from({ length: 30 }, (_, n) => `file${n}.ts`).join('\n') });
      s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
      s.ingest({ type: 'text', text: 'There are 30 files.' });
      s.ingest({ type: 'done', usage: { input_tokens: 1300, output_tokens: 8 } });
      tooled = s.id;
    } else {
      s.ingest({ type: 'text', text: `Done with ${i}.` });
      s.ingest({ type: 'done', usage: { input_tokens: 100, output_tokens: 10 } });
    }
    if (i === 500) needle = s.id;
    ids.push(s.id);
    s.close();
  }
  store.close();
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the package names the CLI as its bin', () => {
  assert.deepEqual(pkg.bin, { sessionkeep: 'dist/cli/main.js' });
  assert.match(fs.readFileSync(BIN, 'utf8'), /^#!\/usr\/bin\/env node\n/);
});

test('ls --all --json lists all 1,000, newest first; ls filters by project', async () => {
  const r = await cli(['ls', '--db', storeLocation(db), '--all', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const list = JSON.parse(r.stdout);
  assert.equal(list.length, 1000);
  assert.deepEqual(list.map((i) => i.id), [...ids].reverse());
  assert.equal(list[0].toolCount, 1);

  const p3 = JSON.parse((await cli(['ls', '--db', storeLocation(db), '--project', '/work/p3', '--json'])).stdout);
  assert.equal(p3.length, 100);
  assert.ok(p3.every((i) => i.projectPath === '/work/p3'));
  const page = JSON.parse((await cli(['ls', '--db', storeLocation(db), '--all', '--json', '--limit', '10', '--offset', '5'])).stdout);
  assert.deepEqual(page.map((i) => i.id), [...ids].reverse().slice(5, 15));
});

test('ls for people: a table of the newest 50, plainly when not on a terminal, coloured on demand', async () => {
  const r = await cli(['ls', '--db', storeLocation(db), '--all']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0], /^UPDATED\s+MSGS\s+TOOLS\s+STATUS\s+ID\s+PROJECT\s+TITLE$/);
  assert.equal(lines.length, 1 + 50 + 1);
  assert.match(lines[1], new RegExp(`^just now\\s+4\\s+1\\s+active\\s+${ids[999]}\\s+/work/p9\\s+Task number 999$`));
  assert.match(lines[2], new RegExp(`${ids[998]}\\s+/work/p8\\s+Task number 998$`));
  assert.equal(lines[51], '… more sessions: --offset 50, or --limit 0 for all');
  assert.doesNotMatch(r.stdout, ANSI, 'no colours off a terminal');

  const coloured = await cli(['ls', '--db', storeLocation(db), '--all', '--limit', '2'], { FORCE_COLOR: '1' });
  assert.match(coloured.stdout, ANSI);
  const here = await cli(['ls', '--db', storeLocation(db)]);
  assert.match(here.stdout, /^No sessions in .*`sessionkeep ls --all` lists every project\.\n$/);
});

test('show renders the conversation with its tool call and result', async () => {
  const prefix = tooled.slice(0, 30);
  const r = await cli(['show', prefix, '--db', storeLocation(db)]);
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  assert.match(out, /^Task number 999\n/);
  assert.match(out, new RegExp(`${tooled} · /work/p9 · claude-sonnet-4-5 · 4 messages · 1 tool call · active`));
  const body = out.split('\n').filter((l) => !/^▌/.test(l));
  for (const expected of ['Task number 999', 'Let me look.', '⏺ bash(command: "ls -1 src")', '  ⎿ bash', '    file0.ts', '    file11.ts', 'There are 30 files.']) {
    assert.ok(body.includes(expected), `missing ${JSON.stringify(expected)} in\n${out}`);
  }
  assert.ok(!body.includes('    file12.ts'), 'long results are cut unless --full');
  assert.ok(body.includes('    … 18 more lines (--full shows everything)'));
  assert.deepEqual(out.split('\n').filter((l) => l.startsWith('▌')).map((l) => l.replace(/ \d\d:\d\d:\d\d$/, '')),
    ['▌ You', '▌ Assistant', '▌ Tool results', '▌ Assistant']);

  const full = await cli(['show', tooled, '--db', storeLocation(db), '--full']);
  assert.ok(full.stdout.split('\n').includes('    file29.ts'));

  const json = JSON.parse((await cli(['show', tooled, '--db', storeLocation(db), '--json'])).stdout);
  const store = openStore(db);
  try {
    const s = store.openSession(tooled);
    assert.deepEqual(json, s.envelopes());
    s.close();
  } finally {
    store.close();
  }
});

test('export as JSONL, JSON, Markdown and Claude Code, to stdout, a file, or a folder of 1,000', async () => {
  const jsonl = await cli(['export', tooled, '--db', storeLocation(db), '--format', 'jsonl']);
  assert.equal(jsonl.code, 0, jsonl.stderr);
  const [header, ...envelopes] = jsonl.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(header.session.id, tooled, 'the backup format leads with the session');
  assert.deepEqual(envelopes.map((e) => e.type), ['user', 'assistant', 'tool_result', 'assistant']);
  assert.equal(envelopes[2].message.content[0].content.split('\n').length, 30);

  const file = path.join(dir, 'one.json');
  assert.equal((await cli(['export', tooled.slice(0, 32), '--db', storeLocation(db), '--format', 'json', '-o', file])).code, 0);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(doc.session.id, tooled);
  assert.deepEqual(doc.envelopes, envelopes);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);

  const md = (await cli(['export', tooled, '--db', storeLocation(db), '--format', 'md'])).stdout;
  assert.match(md, /^# Task number 999\n/);
  assert.match(md, /\n## Assistant\n\n\*.*\*\n\nLet me look\.\n\n\*\*Tool call\*\* `bash` \(`toolu_ls`\)\n\n```json\n\{\n {2}"command": "ls -1 src"\n\}\n```\n/);
  assert.match(md, /\*\*Result\*\* of `bash` \(`toolu_ls`\)\n\n```\nfile0\.ts\n(file\d+\.ts\n){28}file29\.ts\n```/);

  const claude = (await cli(['export', tooled, '--db', storeLocation(db), '--format', 'claude-code'])).stdout;
  const records = claude.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.ok(records.some((r) => r.type === 'assistant' && r.message.content.some((b) => b.type === 'tool_use' && b.id === 'toolu_ls')));

  const folder = path.join(dir, 'all');
  // 1,000 files: 2-5 s alone, but past 20 s with three Node versions' suites side by side
  // (make test-matrix) on two busy cores; the limit only guards against a hang.
  const all = await cli(['export', '--all', '--db', storeLocation(db), '--format', 'jsonl', '-o', folder], {}, 60000);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stderr, /exported 1000 sessions to/);
  assert.doesNotMatch(all.stderr, /\r/, 'no progress bar off a terminal');
  const files = fs.readdirSync(folder);
  assert.equal(files.length, 1000);
  assert.deepEqual(new Set(files), new Set(ids.map((id) => `${id}.jsonl`)));
  const needleLines = fs.readFileSync(path.join(folder, `${needle}.jsonl`), 'utf8').trimEnd().split('\n');
  assert.equal(JSON.parse(needleLines[1]).message.content[0].text, 'Why does the flux capacitor overheat?');

  assert.equal((await cli(['export', tooled, '--db', storeLocation(db), '--format', 'pdf'])).code, 2);
  assert.equal((await cli(['export', ids[0], ids[1], '--db', storeLocation(db)])).code, 2, 'several sessions need a folder');
});

test('search finds the one message among 1,000 sessions', async () => {
  const r = await cli(['search', 'flux', 'capacitor', '--db', storeLocation(db)]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0], new RegExp(`^just now\\s+${needle}  Why does the flux capacitor overheat\\?$`));
  assert.equal(lines[1], '  user: Why does the flux capacitor overheat?');
  const json = JSON.parse((await cli(['search', 'capacitor', '--db', storeLocation(db), '--json'])).stdout);
  assert.deepEqual(json.map((h) => h.sessionId), [needle]);
  const many = JSON.parse((await cli(['search', 'Task', '--db', storeLocation(db), '--json', '--limit', '7'])).stdout);
  assert.equal(many.length, 7);
  assert.match((await cli(['search', 'nothing-like-this', '--db', storeLocation(db)])).stdout, /^Nothing matches/);
});

test('info, stats, rename, archive, unarchive and delete', async () => {
  const prices = path.join(dir, 'prices.json');
  fs.writeFileSync(prices, JSON.stringify({ 'claude-sonnet-4-5': { input: 3, output: 15 } }));
  const info = JSON.parse((await cli(['info', tooled, '--db', storeLocation(db), '--json', '--prices', prices])).stdout);
  assert.equal(info.interactions, 1);
  assert.equal(info.toolCount, 1);
  assert.ok(Math.abs(info.cost - (2500 * 3 + 48 * 15) / 1e6) < 1e-12);
  assert.match(info.resumeSummary.text, /Total Tokens Used: 2,548/);
  const infoText = (await cli(['info', tooled, '--db', storeLocation(db)])).stdout;
  assert.match(infoText, /interactions\s+1\n/);
  assert.match(infoText, /Session Resumed/);

  const st = JSON.parse((await cli(['stats', '--db', storeLocation(db), '--json', '--prices', prices])).stdout);
  assert.equal(st.totals.requests, 999 + 2);
  assert.equal(st.totals.inputTokens, 999 * 100 + 2500);
  assert.match((await cli(['stats', '--db', storeLocation(db), '--days', '1'])).stdout, /^DAY\s+MODEL\s+REQS\s+INPUT.*\n\d{4}-\d\d-\d\d\s+claude-sonnet-4-5\s+1,001\s+102,400\s+/);

  const victim = ids[10];
  assert.equal((await cli(['rename', victim, 'A', 'better', 'title', '--db', storeLocation(db)])).code, 0);
  assert.equal(JSON.parse((await cli(['info', victim, '--db', storeLocation(db), '--json'])).stdout).title, 'A better title');
  assert.equal((await cli(['archive', victim, '--db', storeLocation(db)])).code, 0);
  assert.ok(!JSON.parse((await cli(['ls', '--db', storeLocation(db), '--all', '--json'])).stdout).some((i) => i.id === victim));
  assert.ok(JSON.parse((await cli(['ls', '--db', storeLocation(db), '--all', '--archived', '--json'])).stdout).some((i) => i.id === victim && i.status === 'archived'));
  assert.equal((await cli(['unarchive', victim, '--db', storeLocation(db)])).code, 0);

  const refused = await cli(['delete', victim, '--db', storeLocation(db)]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /needs --yes/);
  const deleted = await cli(['delete', victim, '--db', storeLocation(db), '--yes']);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, `deleted ${victim}\n`);
  const gone = await cli(['show', victim, '--db', storeLocation(db)]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /SESSION_NOT_FOUND/);
});

test('errors: ambiguous prefixes, unknown commands and options, a missing store', async () => {
  const ambiguous = await cli(['show', ids[0].slice(0, 4), '--db', storeLocation(db)]);
  assert.equal(ambiguous.code, 1);
  assert.match(ambiguous.stderr, /AMBIGUOUS_ID/);
  assert.equal((await cli(['frobnicate', '--db', storeLocation(db)])).code, 2);
  const bad = await cli(['ls', '--db', storeLocation(db), '--bogus']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /usage: sessionkeep ls/);
  const missing = await cli(['ls', '--db', path.join(dir, 'nope.db')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no store at/);
  assert.ok(!fs.existsSync(path.join(dir, 'nope.db')), 'a missing store is not created');
  const help = await cli(['--help']);
  assert.equal(help.code, 0);
  for (const c of ['ls', 'show', 'info', 'search', 'export', 'rename', 'archive', 'unarchive', 'delete', 'stats']) {
    assert.match(help.stdout, new RegExp(`\\n  ${c} `));
  }
  const dflt = await cli(['ls', '--all', '--json'], { SESSIONKEEP_DB: storeLocation(db) });
  assert.equal(JSON.parse(dflt.stdout).length, 999, 'the default store is $SESSIONKEEP_DB, as for openStore()');
});
