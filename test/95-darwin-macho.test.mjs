// The macOS packages, cross-built here with Zig, cannot be run here: each addon is inspected
// with Debian's llvm tools instead. A Mach-O dylib for the package's CPU, for macOS 12 or
// older, linking only libSystem and system frameworks, exporting the Node-API module entry,
// its undefined symbols either Node-API's (found in the node process at load: flat lookup) or
// bound two-level to the library that has them, and on arm64 a valid ad-hoc signature (macOS
// does not run unsigned arm64 code). The release workflow loads them on real Macs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { shipped, tarball, tarRead } from './helpers/pack.mjs';
import { tempDir, packagingOnly } from './helpers/common.mjs';
import { checkAdhocSignature } from './helpers/macho-signature.mjs';

const darwin = shipped.filter((p) => p.os === 'darwin');
const CPU = { arm64: 'ARM64', x64: 'X86_64' };
const SYSTEM_LIBRARY = /^(\/usr\/lib\/libSystem\.B\.dylib|\/System\/Library\/Frameworks\/\w+\.framework\/Versions\/A\/\w+)$/;
const NODE_API = /^_(napi|node_api)_\w+$/;

function llvm(tool, ...args) {
  return execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** boundSymbols lists the addon's imports from its bind tables: symbol and the library named. */
function boundSymbols(addon) {
  const rows = [];
  for (const table of ['--bind', '--lazy-bind', '--weak-bind']) {
    for (const line of llvm('llvm-objdump', '--macho', table, addon).split('\n')) {
      const f = line.trim().split(/\s+/);
      if (/^__/.test(f[0]) && f.length >= 5) rows.push({ symbol: f.at(-1), library: f.at(-2) });
    }
  }
  return rows;
}

test('macOS arm64 and x64 packages are shipped', { skip: packagingOnly() }, () => {
  assert.deepEqual(darwin.map((p) => p.id).sort(), ['darwin-arm64', 'darwin-x64']);
});

for (const p of darwin) {
  test(`${p.id}: a Mach-O dylib for ${p.cpu} and macOS 12 or older, linking only system libraries`, { skip: packagingOnly() }, (t) => {
    const addon = path.join(tempDir(t), 'sessionkeep.node');
    fs.writeFileSync(addon, tarRead(tarball(p.id), 'package/sessionkeep.node'));
    const header = llvm('llvm-objdump', '--macho', '--private-header', addon);
    assert.match(header, new RegExp(`MH_MAGIC_64\\s+${CPU[p.cpu]}\\s.*\\sDYLIB\\s`));
    const commands = llvm('llvm-objdump', '--macho', '--private-headers', addon);
    const minos = [...commands.matchAll(/^\s*minos (\d+)\.(\d+)/gm)];
    assert.equal(minos.length, 1, 'one LC_BUILD_VERSION');
    assert.ok(Number(minos[0][1]) <= 12, `minos ${minos[0][1]}.${minos[0][2]}`);
    const libraries = [...commands.matchAll(/cmd LC_LOAD_(?:WEAK_)?DYLIB\n.*\n\s*name (\S+)/g)].map((m) => m[1]);
    assert.ok(libraries.includes('/usr/lib/libSystem.B.dylib'));
    for (const lib of libraries) assert.match(lib, SYSTEM_LIBRARY);
    assert.doesNotMatch(commands, /LC_RPATH/);

    assert.match(llvm('llvm-nm', '--extern-only', '--defined-only', addon), /\sT _napi_register_module_v1$/m);
    // Every undefined symbol is bound: Node-API's by flat lookup in the node process, the
    // rest two-level to libSystem or a framework (llvm-objdump names a library by its leaf).
    const bound = new Map(boundSymbols(addon).map((r) => [r.symbol, r.library]));
    const undefinedSymbols = llvm('llvm-nm', '--undefined-only', '--just-symbol-name', addon).trim().split('\n');
    assert.ok(undefinedSymbols.length > 100, `${undefinedSymbols.length} undefined symbols`);
    const leaves = new Set(libraries.map((lib) => path.basename(lib).replace(/\.B\.dylib$/, '')));
    const wrong = [];
    for (const symbol of undefinedSymbols) {
      const library = bound.get(symbol);
      const ok = NODE_API.test(symbol) ? library === 'flat-namespace' : leaves.has(library);
      if (!ok) wrong.push(`${symbol} -> ${library}`);
    }
    assert.deepEqual(wrong, []);
    assert.ok(undefinedSymbols.includes('_napi_create_function'));
    // Go's crypto/x509 calls CoreFoundation and Security: bound to them, as a native link binds.
    assert.equal(bound.get('_CFRelease'), 'CoreFoundation');
    assert.equal(bound.get('_SecTrustEvaluateWithError'), 'Security');
  });
}

test('darwin-arm64 carries a valid ad-hoc code signature, and the check sees a changed page', { skip: packagingOnly() }, () => {
  const addon = tarRead(tarball('darwin-arm64'), 'package/sessionkeep.node');
  assert.deepEqual(checkAdhocSignature(addon), []);
  addon[0x4000 + 100] ^= 0xff;
  assert.deepEqual(checkAdhocSignature(addon).map((s) => s.replace(/\d+/, 'N')), ['page N does not match its hash']);
});
