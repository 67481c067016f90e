// musl: npm has no musl Node, so the musl addons are loaded by napi-host.c, a small C host
// built with musl, that stands in for Node (see the file). The same host built with glibc
// loads the glibc addon and registers every function, which shows the host works; musl's
// dynamic linker refuses the musl addons because Go's c-shared code uses initial-exec TLS
// (golang/go#54805). That is why platforms.json marks them blocked and they are not packed:
// when this test fails because the musl load succeeds, Go has fixed it; unblock them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, platforms } from './helpers/pack.mjs';
import { tempDir, helper, packagingOnly } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const OWN = new Set(['napi_set_instance_data', 'napi_add_env_cleanup_hook', 'napi_create_function', 'napi_set_named_property']);

/** buildHost compiles napi-host.c with a compiler, plus a failing stub for every other Node-API function. */
function buildHost(dir, name, cc) {
  const { v8 } = require('node-api-headers').symbols;
  const stubs = [...v8.js_native_api_symbols, ...v8.node_api_symbols].filter((s) => !OWN.has(s));
  const stubFile = path.join(dir, 'stubs.c');
  fs.writeFileSync(stubFile, stubs.map((s) => `int ${s}(void) { return 9; /* napi_generic_failure */ }`).join('\n') + '\n');
  const out = path.join(dir, name);
  execFileSync(cc[0], [...cc.slice(1), '-O1', '-rdynamic', '-o', out, helper('napi-host.c'), stubFile]);
  return out;
}

test('napi-host built with glibc loads the glibc addon and its Go module init registers every function', { skip: packagingOnly() }, (t) => {
  const host = buildHost(tempDir(t), 'host-gnu', ['gcc']);
  const got = JSON.parse(execFileSync(host, [path.join(ROOT, 'build', 'Release', 'sessionkeep.node')], { encoding: 'utf8' }));
  const functions = Object.keys(require('../build/Release/sessionkeep.node')).length;
  assert.deepEqual(got, { napiVersion: 8, registered: functions, exportsReturned: true });
});

const musl = {
  'linux-x64-musl': { cc: ['musl-gcc'], run: [] },
  'linux-arm64-musl': { cc: ['aarch64-linux-gnu-gcc', '-specs', '/usr/lib/aarch64-linux-musl/musl-gcc.specs'], run: ['qemu-aarch64-static'] },
};

for (const p of platforms.filter((p) => p.libc === 'musl')) {
  test(`${p.id}: musl's loader still refuses a Go c-shared addon, as platforms.json says`, { skip: packagingOnly() }, (t) => {
    assert.match(p.blocked ?? '', /golang\/go#54805/);
    const host = buildHost(tempDir(t), `host-${p.id}`, musl[p.id].cc);
    const addon = path.join(ROOT, 'build', 'pack', p.id, 'sessionkeep.node');
    const [cmd, ...args] = [...musl[p.id].run, host, addon];
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    assert.equal(r.status, 1, `the load ${r.status === 0 ? 'worked: Go fixed golang/go#54805, unblock ' + p.id : 'failed otherwise'}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /initial-exec TLS resolves to dynamic definition/);
  });
}
