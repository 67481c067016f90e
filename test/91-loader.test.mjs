// The loader: which platform package it looks for, how it tells musl from glibc, Electron's
// app.asar.unpacked, the order platform package then local build, and the errors when
// neither is there or neither loads. Loading a second copy of the addon would start a second
// Go runtime in this process, so every load of a copy happens in a child.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, tarball, tarRead } from './helpers/pack.mjs';
import { tempDir, packagingOnly } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const loader = require('../dist/loader.js');
const platform = require('../dist/platform.js');
const { SessionError } = require('../dist/errors.js');
const ADDON = path.join(ROOT, 'build', 'Release', 'sessionkeep.node');

test('platformId follows the napi-rs names: os, cpu and, on Linux, the libc', { skip: packagingOnly() }, () => {
  assert.equal(platform.platformId('linux', 'arm64', 'musl'), 'linux-arm64-musl');
  assert.equal(platform.platformId('linux', 'x64', 'gnu'), 'linux-x64-gnu');
  assert.equal(platform.platformId('win32', 'x64'), 'win32-x64');
  assert.equal(platform.platformId('darwin', 'arm64'), 'darwin-arm64');
  assert.equal(platform.platformPackage('linux-x64-gnu'), 'sessionkeep-linux-x64-gnu');
  assert.equal(platform.platformId(), `${process.platform}-${process.arch}-gnu`, 'this machine runs Node on glibc');
});

test('this Node is found to run on glibc by each way of asking, and they agree', { skip: packagingOnly() }, () => {
  const head = fs.readFileSync(process.execPath).subarray(0, 4096);
  assert.equal(platform.libcFromInterpreter(head), 'gnu');
  assert.equal(platform.libcFromReportHeader(process.report.getReport().header), 'gnu');
  assert.equal(platform.libcFromLdd(execFileSync('ldd', ['--version'], { encoding: 'utf8' })), 'gnu');
  assert.equal(platform.linuxLibc(), 'gnu');
  assert.equal(platform.libcFromReportHeader({}), 'musl', 'a Node built on musl reports no glibc');
});

test('a musl executable and musl\'s own ldd are recognised as musl', { skip: packagingOnly() }, (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'main.c'), 'int main(void) { return 0; }\n');
  execFileSync('musl-gcc', ['-o', path.join(dir, 'main'), path.join(dir, 'main.c')]);
  assert.equal(platform.libcFromInterpreter(fs.readFileSync(path.join(dir, 'main')).subarray(0, 4096)), 'musl');
  // musl's dynamic loader acts as ldd when it is called by that name.
  const muslArch = { x64: 'x86_64', arm64: 'aarch64' }[process.arch];
  fs.symlinkSync(`/lib/ld-musl-${muslArch}.so.1`, path.join(dir, 'ldd'));
  const ldd = spawnSync(path.join(dir, 'ldd'), ['--version'], { encoding: 'utf8' });
  assert.equal(platform.libcFromLdd(ldd.stdout + ldd.stderr), 'musl');
  assert.equal(platform.libcFromInterpreter(Buffer.from('\x7fELF no loader named')), undefined);
});

test('asarUnpacked maps paths inside app.asar to app.asar.unpacked and leaves others alone', { skip: packagingOnly() }, () => {
  assert.equal(loader.asarUnpacked('/opt/App/resources/app.asar/node_modules/x/a.node'), '/opt/App/resources/app.asar.unpacked/node_modules/x/a.node');
  assert.equal(loader.asarUnpacked('C:\\App\\resources\\app.asar\\node_modules\\x\\a.node'), 'C:\\App\\resources\\app.asar.unpacked\\node_modules\\x\\a.node');
  assert.equal(loader.asarUnpacked('/opt/App/resources/app.asar.unpacked/x/a.node'), '/opt/App/resources/app.asar.unpacked/x/a.node');
  assert.equal(loader.asarUnpacked('/home/me/app.asarx/a.node'), '/home/me/app.asarx/a.node');
});

/** loadInChild runs loadAddon in a new Node with the given search and prints what it got. */
function loadInChild(search) {
  const script = `
    const { loadAddon } = require(${JSON.stringify(path.join(ROOT, 'dist', 'loader.js'))});
    const search = ${JSON.stringify(search)};
    if (search.resolveTo) search.resolve = () => search.resolveTo;
    else search.resolve = (r) => { throw Object.assign(new Error('Cannot find module ' + r), { code: 'MODULE_NOT_FOUND' }); };
    try {
      const { addon, file } = loadAddon(search);
      console.log(JSON.stringify({ file, functions: Object.keys(addon).length, hasOpenStore: typeof addon.openStore }));
    } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

test('in an Electron app the platform package is loaded from app.asar.unpacked', { skip: packagingOnly() }, (t) => {
  const resources = path.join(tempDir(t), 'resources');
  const inside = path.join(resources, 'app.asar', 'node_modules', 'sessionkeep-linux-x64-gnu', 'sessionkeep.node');
  const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', 'sessionkeep-linux-x64-gnu', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(unpacked), { recursive: true });
  fs.copyFileSync(ADDON, unpacked);
  // Electron's require.resolve answers with the path inside the archive.
  const got = loadInChild({ platform: 'linux-x64-gnu', resolveTo: inside, localBuild: path.join(resources, 'none.node') });
  assert.deepEqual(got, { file: unpacked, functions: got.functions, hasOpenStore: 'function' });
  assert.ok(got.functions > 50);
});

test('in a packaged Electron app on macOS the darwin packages are found in Contents/Resources/app.asar.unpacked', { skip: packagingOnly() }, (t) => {
  // Found, not loaded: a Mach-O addon cannot load here (test 96 does the Windows layout under Wine).
  const resources = path.join(tempDir(t), 'Agent.app', 'Contents', 'Resources');
  for (const id of ['darwin-arm64', 'darwin-x64']) {
    const inside = path.join(resources, 'app.asar', 'node_modules', `sessionkeep-${id}`, 'sessionkeep.node');
    const unpacked = path.join(resources, 'app.asar.unpacked', 'node_modules', `sessionkeep-${id}`, 'sessionkeep.node');
    fs.mkdirSync(path.dirname(unpacked), { recursive: true });
    fs.writeFileSync(unpacked, tarRead(tarball(id), 'package/sessionkeep.node'));
    const search = { platform: id, localBuild: path.join(resources, 'none.node') };
    assert.deepEqual(loader.addonCandidates({ ...search, resolve: (r) => { assert.equal(r, `sessionkeep-${id}/sessionkeep.node`); return inside; } }), [unpacked]);
  }
});

test('the platform package comes first; one that does not load gives way to the local build', { skip: packagingOnly() }, (t) => {
  const dir = tempDir(t);
  const broken = path.join(dir, 'sessionkeep-linux-x64-gnu', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(broken), { recursive: true });
  fs.writeFileSync(broken, 'not a shared library');
  const local = path.join(dir, 'build', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(local), { recursive: true });
  fs.copyFileSync(ADDON, local);

  assert.deepEqual(loader.addonCandidates({ platform: 'linux-x64-gnu', resolve: () => broken, localBuild: local }), [broken, local]);
  assert.equal(loadInChild({ platform: 'linux-x64-gnu', resolveTo: broken, localBuild: local }).file, local);
  const failed = loadInChild({ platform: 'linux-x64-gnu', resolveTo: broken, localBuild: path.join(dir, 'none.node') });
  assert.equal(failed.code, 'ADDON_LOAD_FAILED');
  assert.match(failed.message, /sessionkeep-linux-x64-gnu\/sessionkeep\.node: .*(invalid ELF header|too short)/);
});

test('with neither a platform package nor a local build, loading throws ADDON_NOT_FOUND in one line', { skip: packagingOnly() }, () => {
  const search = { platform: 'linux-arm64-gnu', resolve: (r) => require.resolve(r), localBuild: '/nonexistent/sessionkeep.node' };
  assert.throws(() => loader.loadAddon(search), (err) => {
    assert.ok(err instanceof SessionError);
    assert.equal(err.code, 'ADDON_NOT_FOUND');
    assert.doesNotMatch(err.message, /\n/);
    assert.match(err.message, /linux-arm64-gnu/);
    assert.match(err.message, /install the package sessionkeep-linux-arm64-gnu/);
    assert.match(err.message, /: npx sessionkeep build-addon$/);
    return true;
  });
});

test('ADDON_NOT_FOUND for a platform with no package names only the published ones, read from platforms.json', { skip: packagingOnly() }, (t) => {
  const published = loader.publishedPlatforms();
  const listed = JSON.parse(fs.readFileSync(path.join(ROOT, 'native', 'packaging', 'platforms.json'), 'utf8'));
  assert.deepEqual(published, listed.filter((p) => !p.blocked).map((p) => p.id));
  assert.ok(published.includes('linux-x64-gnu') && !published.includes('linux-x64-musl'));
  const err = loader.addonNotFound('freebsd-x64');
  assert.equal(err.code, 'ADDON_NOT_FOUND');
  assert.doesNotMatch(err.message, /sessionkeep-freebsd-x64|\n/);
  assert.match(err.message, new RegExp(`only for ${published.join(', ')}\\)`));
  assert.match(err.message, /npx sessionkeep build-addon$/);
  // A platform added to the file (as the macOS issue does) is named with no other change.
  const file = path.join(tempDir(t), 'platforms.json');
  fs.writeFileSync(file, JSON.stringify([...listed, { id: 'darwin-arm64', os: 'darwin', cpu: 'arm64' }, { id: 'sunos-x64', blocked: 'no' }]));
  assert.deepEqual(loader.publishedPlatforms(file), [...published, 'darwin-arm64']);
  assert.match(loader.addonNotFound('darwin-arm64', loader.publishedPlatforms(file)).message, /install the package sessionkeep-darwin-arm64 /);
});

test('SESSIONKEEP_ADDON_PATH names the addon to load, before the platform package; a wrong one is ADDON_NOT_FOUND', { skip: packagingOnly() }, (t) => {
  const dir = tempDir(t);
  const elsewhere = path.join(dir, 'read-only', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(elsewhere), { recursive: true });
  fs.copyFileSync(ADDON, elsewhere);
  const broken = path.join(dir, 'sessionkeep-linux-x64-gnu', 'sessionkeep.node');
  fs.mkdirSync(path.dirname(broken), { recursive: true });
  fs.writeFileSync(broken, 'not a shared library');
  const got = loadInChild({ platform: 'linux-x64-gnu', resolveTo: broken, localBuild: path.join(dir, 'none.node'), addonPath: elsewhere });
  assert.equal(got.file, elsewhere);
  assert.equal(got.hasOpenStore, 'function');
  const missing = loadInChild({ platform: 'linux-x64-gnu', resolveTo: ADDON, addonPath: path.join(dir, 'nope.node') });
  assert.equal(missing.code, 'ADDON_NOT_FOUND');
  assert.match(missing.message, /no native addon at .*nope\.node, which SESSIONKEEP_ADDON_PATH names/);
  // Through the environment, as an app sets it: the package loads that file.
  const r = spawnSync(process.execPath, ['-e', `const sk = require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))});
    const s = sk.openStore(${JSON.stringify(path.join(dir, 's.db'))}); s.close();
    console.log(Object.keys(require.cache).find((f) => f.endsWith('.node')))`], { env: { ...process.env, SESSIONKEEP_ADDON_PATH: elsewhere }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), elsewhere);
});

test('importing the package loads no addon: the first call does, and its failure is that call\'s error', { skip: packagingOnly() }, () => {
  const r = spawnSync(process.execPath, ['-e', `const sk = require(${JSON.stringify(path.join(ROOT, 'dist', 'index.js'))});
    const before = Object.keys(require.cache).filter((f) => f.endsWith('.node')).length;
    let code, isSessionError; try { sk.openStore(":memory:"); } catch (e) { code = e.code; isSessionError = e instanceof sk.SessionError; }
    console.log(JSON.stringify({ before, code, isSessionError }))`], { env: { ...process.env, SESSIONKEEP_ADDON_PATH: '/nonexistent/sessionkeep.node' }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { before: 0, code: 'ADDON_NOT_FOUND', isSessionError: true });
});

test('on musl loading throws ADDON_UNSUPPORTED naming the Go issues, before trying any file', { skip: packagingOnly() }, () => {
  assert.throws(() => loader.loadAddon({ platform: 'linux-x64-musl', localBuild: ADDON }), (err) => {
    assert.equal(err.code, 'ADDON_UNSUPPORTED');
    assert.match(err.message, /golang\/go#54805/);
    return true;
  });
});
