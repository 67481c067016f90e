// The command line's own grammar (issue 34): `sessionkeep [--db <path>] [--json] <command>`,
// --version, extra arguments refused, bare `sessionkeep` and --help, which need no native
// addon, and migrate, which takes its source from --from or --db and never from the default.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, runNode, storeLocation } from './helpers/common.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

let dir;
let db;
let id;

/** cli runs the bin with no default store of the user's: SESSIONKEEP_DB names an empty folder's file. */
function cli(args, { bin = BIN, env = {} } = {}) {
  const base = { ...process.env, SESSIONKEEP_DB: path.join(dir, 'default', 'sessions.db') };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'SESSIONKEEP_PRICES', 'SESSIONKEEP_ADDON_PATH']) delete base[name];
  return runNode(bin, args, { env: { ...base, ...env } });
}

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-160-'));
  db = path.join(dir, 'a.db');
  const store = openStore(db);
  const s = store.createSession({ projectPath: '/work/p', title: 'the one in a' });
  s.appendUserMessage('hello');
  id = s.id;
  store.close();
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('--db and --json before the command mean what they mean after it', async () => {
  const before = await cli(['--db', storeLocation(db), '--json', 'ls', '--all']);
  assert.equal(before.code, 0, before.stderr);
  assert.deepEqual(JSON.parse(before.stdout).map((i) => i.id), [id]);
  const after = await cli(['ls', '--all', '--json', '--db', storeLocation(db)]);
  assert.equal(after.stdout, before.stdout);
  const equals = await cli([`--db=${storeLocation(db)}`, 'ls', '--all']);
  assert.equal(equals.code, 0, equals.stderr);
  assert.match(equals.stdout, /the one in a/);
  const unknown = await cli(['--bogus', 'ls']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option "--bogus" before the command/);
  assert.equal(unknown.stdout, '');
});

test('--version prints the package version; bare sessionkeep prints usage to stderr, exit 2', async () => {
  const v = await cli(['--version']);
  assert.equal(v.code, 0, v.stderr);
  assert.equal(v.stdout, `${pkg.version}\n`);
  const bare = await cli([]);
  assert.equal(bare.code, 2);
  assert.equal(bare.stdout, '');
  assert.match(bare.stderr, /^usage: sessionkeep \[--db <path>\] \[--json\] <command>/);
});

test('extra arguments are refused with a usage error on stderr, exit 2', async () => {
  for (const args of [['ls', 'foo'], ['stats', 'foo'], ['migrate', '--from', db, '--to', path.join(dir, 'x.db'), 'foo']]) {
    const r = await cli([...args, '--db', storeLocation(db)].filter((a, i, all) => !(args[0] === 'migrate' && (a === '--db' || all[i - 1] === '--db'))));
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`sessionkeep ${args[0]}: ${args[0]} takes no arguments, not "foo"\\nusage: sessionkeep ${args[0]}`));
  }
  assert.ok(!fs.existsSync(path.join(dir, 'x.db')), 'a refused migrate creates no target');
});

test('migrate --db a --to b copies a, and migrate without --from or --db does not read the default store', async () => {
  // The default store ($SESSIONKEEP_DB) holds another session, which must not reach the target.
  const dflt = openStore(path.join(dir, 'default', 'sessions.db'));
  dflt.createSession({ title: 'the default one' }).appendUserMessage('not me');
  dflt.close();
  const target = path.join(dir, 'b.db');
  const moved = await cli(['migrate', '--db', storeLocation(db), '--to', storeLocation(target)]);
  assert.equal(moved.code, 0, moved.stderr);
  const b = openStore(target);
  try {
    assert.deepEqual(b.listSessions({ includeArchived: true }).map((i) => i.title), ['the one in a']);
  } finally {
    b.close();
  }
  const none = await cli(['migrate', '--to', storeLocation(path.join(dir, 'c.db'))]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /give the store with --from <path> \(or --db <path>\)/);
  const two = await cli(['migrate', '--from', storeLocation(db), '--db', storeLocation(target), '--to', storeLocation(path.join(dir, 'c.db'))]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /--from and --db name two stores/);
});

test('without any addon, --help, help and a command\'s --help work; a command fails in one line', async (t) => {
  // A copy of the package with no build/ and no platform package beside it.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-160-noaddon-'));
  t.after(() => fs.rmSync(copy, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, 'dist'), path.join(copy, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
  const bin = path.join(copy, 'dist', 'cli', 'main.js');
  for (const args of [['--help'], ['help'], ['-h']]) {
    const r = await cli(args, { bin });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {2}ls {3}/);
    assert.equal(r.stderr, '');
  }
  const lsHelp = await cli(['ls', '--help'], { bin });
  assert.equal(lsHelp.code, 0, lsHelp.stderr);
  assert.match(lsHelp.stdout, /^usage: sessionkeep ls /);
  const version = await cli(['--version'], { bin });
  assert.equal(version.stdout, `${pkg.version}\n`);
  const ls = await cli(['ls', '--db', storeLocation(db)], { bin }); // a file, or the PostgreSQL store when the suite runs on it
  assert.equal(ls.code, 1);
  assert.equal(ls.stdout, '');
  assert.equal(ls.stderr.trimEnd().split('\n').length, 1, ls.stderr);
  assert.match(ls.stderr, /^sessionkeep ls: .*sessionkeep build-addon.* \(ADDON_NOT_FOUND\)\n$/);
});

test('build-addon refuses a Go older than 1.26 and a missing C compiler, saying which, and exits 1', { skip: process.platform === 'win32' }, async (t) => {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sk-160-bin-'));
  t.after(() => fs.rmSync(bin, { recursive: true, force: true }));
  fs.writeFileSync(path.join(bin, 'go'), '#!/bin/sh\necho "go version go1.25.3 linux/amd64"\n', { mode: 0o755 });
  const r = await cli(['build-addon', '--out', path.join(bin, 'x.node')], { env: { PATH: `${bin}:${process.env.PATH}`, CC: 'no-such-compiler-cc' } });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /this machine lacks Go 1\.26\+ \(`go version` says go version go1\.25\.3 linux\/amd64\), a C compiler \(\$CC is no-such-compiler-cc\)\n$/);
  assert.ok(!fs.existsSync(path.join(bin, 'x.node')));
  const extra = await cli(['build-addon', 'now']);
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /build-addon takes no arguments, not "now"/);
});

test('whether a command takes arguments is read from its usage line, so a new command file needs no other entry', async () => {
  const { takesArguments } = await import('../dist/cli/args.js').then((m) => m.default);
  const cases = {
    'ls [--all | --project <path>] [--limit n]': false,
    'serve [--port n] [--no-open] [--prices <file>]': false,
    'migrate --from <file|url> --to <file|url>  (--db <file|url> may name the source)': false,
    'debug-context <id> [--window <tokens>]': true,
    'export <id...> | --all [--project <path>]': true,
    'verify [<id...>] [--json]': true,
    'rename <id> <title...>': true,
  };
  for (const [usage, takes] of Object.entries(cases)) assert.equal(takesArguments(usage), takes, usage);
});
