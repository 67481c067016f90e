// One list of error codes (issue 34): every code the Go bridge maps its errors to, every code
// the package's JavaScript throws, and SessionErrorCode (ts/errors.ts) are the same set, and
// docs/api.md's table of SessionError codes has each, with the addon's plain-Error codes
// (ADDON_INIT) too; the slash commands' codes are documented, with one code a condition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const sorted = (set) => [...set].sort();

/** goFiles lists a folder's Go sources, without tests. */
function goFiles(dir) {
  return fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).map((f) => read(path.join(dir, f)));
}

/** bridgeCodes are the codes JavaScript sees from Go: the errorCodes table and every JSError literal. */
function bridgeCodes() {
  const codes = new Set();
  for (const src of [...goFiles('bridge'), ...goFiles('native')]) {
    for (const m of src.matchAll(/\{session\.\w+, "([A-Z][A-Z_]+)",/g)) codes.add(m[1]);
    for (const m of src.matchAll(/\{native\.\w+, "([A-Z][A-Z_]+)",/g)) codes.add(m[1]);
    for (const m of src.matchAll(/JSError\{Code: "([A-Z][A-Z_]+)"/g)) codes.add(m[1]);
  }
  return codes;
}

/** tsFiles lists every .ts file under ts/, recursively. */
function tsFiles(dir = 'ts') {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** thrownInTS are the codes the package's JavaScript gives a SessionError it creates. */
function thrownInTS() {
  const codes = new Set();
  for (const file of tsFiles()) {
    const src = read(file);
    for (const m of src.matchAll(/new SessionError\(/g)) {
      const code = /'([A-Z][A-Z_]{2,})'/.exec(src.slice(m.index, m.index + 400));
      if (code) codes.add(code[1]);
    }
  }
  return codes;
}

const union = new Set([...read('ts/errors.ts').matchAll(/^\s*\| '([A-Z][A-Z_]+)'/gm)].map((m) => m[1]));
const api = read('docs/api.md');
const errorTable = api.slice(api.indexOf('# class *SessionError*'));
const documented = new Set([...errorTable.slice(0, errorTable.indexOf('```')).matchAll(/^\| `([A-Z][A-Z_]+)` \|/gm)].map((m) => m[1]));

test('SessionErrorCode is exactly the codes the Go bridge and the JavaScript layer throw', () => {
  const bridge = bridgeCodes();
  assert.ok(bridge.has('SESSION_NOT_FOUND') && bridge.has('STORE_UNAVAILABLE') && bridge.has('INTERNAL'), sorted(bridge).join(' '));
  const thrown = thrownInTS();
  assert.ok(thrown.has('STRATEGY_FAILED') && thrown.has('ADDON_NOT_FOUND'), sorted(thrown).join(' '));
  assert.deepEqual(sorted(union), sorted(new Set([...bridge, ...thrown])));
});

test('docs/api.md documents every SessionError code, and the addon\'s own ADDON_INIT', () => {
  const plain = new Set();
  for (const src of goFiles('native')) for (const m of src.matchAll(/throwPlain\(env, "([A-Z][A-Z_]+)"/g)) plain.add(m[1]);
  assert.ok(plain.has('ADDON_INIT'));
  assert.deepEqual(sorted(documented), sorted(new Set([...union, ...plain])));
});

test('the slash commands\' codes are documented, and none names a condition a SessionError code already names', () => {
  const own = new Set();
  for (const file of tsFiles('ts/commands')) for (const m of read(file).matchAll(/new CommandError\('([A-Z][A-Z_]+)'/g)) own.add(m[1]);
  const declared = read('ts/commands/types.ts');
  const listed = api.slice(api.indexOf('A command that cannot run is not thrown'), api.indexOf('A program\'s mistakes do throw'));
  for (const code of own) {
    assert.ok(union.has(code) || declared.includes(`| '${code}'`), `${code} is in SessionCommandErrorCode`);
    assert.ok(listed.includes(`\`${code}\``), `${code} is in docs/api.md's list`);
  }
  assert.ok(own.has('AMBIGUOUS_ID'), 'a prefix of several snapshots is AMBIGUOUS_ID, as for session ids');
  assert.doesNotMatch(listed, /`AMBIGUOUS`/);
});

test('every TypeError for an argument has one shape: code ERR_INVALID_ARG_TYPE, `The "name" argument must be …`', async () => {
  const sk = (await import('../dist/index.js')).default;
  const { SessionkeepAgentsSession } = (await import('../dist/openai-agents.js')).default;
  const empty = (async function* () {})();
  const calls = {
    fromAnthropicStream: () => sk.fromAnthropicStream({}, empty),
    fromOpenAIStream: () => sk.fromOpenAIStream(null, empty),
    fromAISDKStream: () => sk.fromAISDKStream(42, empty),
    fromClaudeAgentSDK: () => sk.fromClaudeAgentSDK({}, empty),
    SessionkeepAgentsSession: () => new SessionkeepAgentsSession({}),
    runSessionCommand: () => sk.runSessionCommand(42, {}),
  };
  for (const [name, call] of Object.entries(calls)) {
    let thrown;
    try {
      await call();
    } catch (err) {
      thrown = err;
    }
    assert.ok(thrown instanceof TypeError, `${name}: ${thrown}`);
    assert.equal(thrown.code, 'ERR_INVALID_ARG_TYPE', name);
    assert.match(thrown.message, /^The "\w+" argument must be .+\.$/, name);
  }
});

test('listSessions and listSessionsAsync check their options alike: one TypeError for what is not an options object', async (t) => {
  const { openStore, tempDir } = await import('./helpers/common.mjs');
  const store = openStore(path.join(tempDir(t), 'l.db'));
  t.after(() => store.close());
  for (const bad of [[], 'all', null, 7]) {
    let sync;
    try {
      store.listSessions(bad);
    } catch (err) {
      sync = err;
    }
    const async = await store.listSessionsAsync(bad).then(() => undefined, (err) => err);
    for (const err of [sync, async]) {
      assert.ok(err instanceof TypeError, `${JSON.stringify(bad)}: ${err}`);
      assert.equal(err.code, 'ERR_INVALID_ARG_TYPE');
    }
    assert.equal(sync.message, async.message);
  }
  assert.deepEqual(store.listSessions(), await store.listSessionsAsync());
});
