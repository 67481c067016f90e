// What `make pack` wrote to pack/: a main package with what a user or a source build needs
// and no tests, listing one platform package per shipped platform at its own version; each
// platform package with its os/cpu/libc and one stripped addon for the right architecture;
// glibc builds that load on glibc 2.28; a Windows DLL (run under Wine by test 96) that takes
// Node-API from the host process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, pkg, platforms, shipped, tarball, tarFiles, tarRead } from './helpers/pack.mjs';
import { tempDir, packagingOnly } from './helpers/common.mjs';
import { OLDEST_GLIBC, compareVersions, glibcVersions, tooNew } from '../native/packaging/glibc.mjs';

const TEST_FILE = /(^|\/)(test|tests|testdata)\/|_test\.go$|\.test\.m?js$/;

test('npm pack --dry-run of this checkout lists no test files, no generated vocabulary, and what a source build needs', { skip: packagingOnly() }, () => {
  const [listing] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  const files = listing.files.map((f) => f.path);
  assert.deepEqual(files.filter((f) => TEST_FILE.test(f)), []);
  for (const needed of ['package.json', 'README.md', 'go.mod', 'go.sum', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/build-addon.js',
    'native/packaging/platforms.json',
    'dist/ink/index.js', 'dist/cli/main.js', 'native/build-addon.sh', 'native/glibc-pins.h', 'native/addon/main.go', 'bridge/store.go',
    'session/tokens/internal/vocabgen/main.go']) {
    assert.ok(files.includes(needed), `${needed} is in the package`);
  }
  // The tokenizer's vocabulary is tiktoken-go's data: a source build generates it (vocabgen).
  assert.deepEqual(files.filter((f) => f.endsWith('.vocab.gz')), []);
  assert.deepEqual(files.filter((f) => (f.startsWith('native/packaging/') && f !== 'native/packaging/platforms.json') || f.startsWith('build/') || f.endsWith('.tsbuildinfo')), []);
  // Source maps would point at sources the package does not ship; the demo is the checkout's.
  assert.deepEqual(files.filter((f) => f.endsWith('.map') || f.startsWith('dist/demo/')), []);
});

test('the main tarball lists every shipped platform package as an optional dependency at its version', { skip: packagingOnly() }, () => {
  const files = tarFiles(tarball());
  assert.deepEqual(files.filter((f) => TEST_FILE.test(f)), []);
  const manifest = JSON.parse(tarRead(tarball(), 'package/package.json'));
  assert.deepEqual(manifest.optionalDependencies, Object.fromEntries(shipped.map((p) => [`sessionkeep-${p.id}`, pkg.version])));
  // No install script: the source build is `sessionkeep build-addon`, run when asked for.
  assert.equal(manifest.scripts?.install, undefined);
});

test('each platform package carries os, cpu and libc and just its addon', { skip: packagingOnly() }, () => {
  for (const p of shipped) {
    const file = tarball(p.id);
    assert.deepEqual(tarFiles(file).sort(), ['package/README.md', 'package/package.json', 'package/sessionkeep.node']);
    const manifest = JSON.parse(tarRead(file, 'package/package.json'));
    assert.equal(manifest.name, `sessionkeep-${p.id}`);
    assert.equal(manifest.version, pkg.version);
    assert.deepEqual(manifest.os, [p.os]);
    assert.deepEqual(manifest.cpu, [p.cpu]);
    assert.deepEqual(manifest.libc, p.libc ? [p.libc] : undefined);
    // Half the 28 MB of the unstripped addon, at most.
    assert.ok(fs.statSync(file).size < 14e6, `${p.id}: ${fs.statSync(file).size} bytes`);
  }
  for (const p of platforms.filter((p) => p.blocked)) assert.ok(!fs.existsSync(tarball(p.id)), `${p.id} is not packed`);
});

/** addonOf unpacks a platform package's addon into dir. */
function addonOf(id, dir) {
  const file = path.join(dir, `${id}.node`);
  fs.writeFileSync(file, tarRead(tarball(id), 'package/sessionkeep.node'));
  return file;
}

test('the Linux glibc addons are stripped, for their CPU, and need nothing newer than glibc 2.28', { skip: packagingOnly() }, (t) => {
  const dir = tempDir(t);
  const machine = { x64: 'Advanced Micro Devices X86-64', arm64: 'AArch64' };
  for (const p of shipped.filter((p) => p.libc === 'glibc')) {
    const addon = addonOf(p.id, dir);
    assert.match(execFileSync('readelf', ['-h', addon], { encoding: 'utf8' }), new RegExp(`Machine:\\s+${machine[p.cpu]}`));
    assert.doesNotMatch(execFileSync('readelf', ['-S', '-W', addon], { encoding: 'utf8' }), /\.symtab|\.debug_info/, `${p.id} is stripped`);
    assert.deepEqual(tooNew(addon), [], `${p.id} needs ${glibcVersions(addon).join(', ')}`);
    // Before glibc 2.34 the pinned pthread functions live in libpthread.so.0.
    assert.match(execFileSync('readelf', ['-d', addon], { encoding: 'utf8' }), /NEEDED.*\[libpthread\.so\.0\]/);
  }
});

test('the glibc check catches a library built against this machine\'s glibc without the pins', { skip: packagingOnly() }, (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(path.join(dir, 'threads.c'), '#include <pthread.h>\nint start(pthread_t *t, void *(*f)(void *)) { return pthread_create(t, 0, f, 0); }\n');
  const lib = path.join(dir, 'threads.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-o', lib, path.join(dir, 'threads.c')]);
  assert.ok(compareVersions(glibcVersions(lib).at(-1), OLDEST_GLIBC) > 0, glibcVersions(lib).join(' '));
  assert.deepEqual(tooNew(lib), ['2.34']);
  // The same source with the pins is fine.
  execFileSync('gcc', ['-shared', '-fPIC', '-include', path.join(ROOT, 'native', 'glibc-pins.h'), '-o', lib, path.join(dir, 'threads.c')]);
  assert.deepEqual(tooNew(lib), []);
});

test('the Windows addon is an x86-64 DLL that imports Node-API from NODE.EXE and exports the module entry', { skip: packagingOnly() }, (t) => {
  const addon = addonOf('win32-x64', tempDir(t));
  const pe = execFileSync('x86_64-w64-mingw32-objdump', ['-p', addon], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.match(execFileSync('x86_64-w64-mingw32-objdump', ['-f', addon], { encoding: 'utf8' }), /file format pei-x86-64/);
  assert.match(pe, /Characteristics .*\n(.*\n)*?\s+DLL/);
  const dlls = [...pe.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1].toUpperCase()).sort();
  assert.deepEqual(dlls, ['KERNEL32.DLL', 'MSVCRT.DLL', 'NODE.EXE']);
  const fromNode = pe.split(/DLL Name: /).find((s) => s.startsWith('NODE.EXE'));
  assert.match(fromNode, /napi_create_function/);
  assert.match(fromNode, /napi_create_threadsafe_function/);
  assert.match(pe, /\]\s+napi_register_module_v1/);
  assert.match(pe, /\]\s+node_api_module_get_api_version_v1/);
});
