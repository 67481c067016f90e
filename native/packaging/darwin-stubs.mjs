// darwin-stubs.mjs <dir> writes the macOS libraries a darwin cross-build links against, other
// than libSystem (which Zig brings): text stubs (.tbd) for CoreFoundation, Security and
// libresolv, each listing the symbols the Go standard library imports from it (its
// `//go:cgo_import_dynamic` directives, read from the GOROOT that builds). A symbol the link
// finds in a stub is bound two-level, to that library by its install name, as a link against
// the real SDK binds it; `-undefined dynamic_lookup` is then left with Node-API's symbols only.
// Stubs, not the libraries: no Apple SDK is needed, and nothing Apple wrote is copied.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** LIBRARIES maps each install name Go imports from to where the linker looks for its stub. */
const LIBRARIES = {
  '/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation': 'CoreFoundation.framework/CoreFoundation.tbd',
  '/System/Library/Frameworks/Security.framework/Versions/A/Security': 'Security.framework/Security.tbd',
  '/usr/lib/libresolv.9.dylib': 'libresolv.tbd',
};

/** IMPORT matches a directive: local name, the library's symbol, the library's install name. */
const IMPORT = /^\/\/go:cgo_import_dynamic \S+ (\S+) "([^"]+)"/gm;

/** goFiles lists the .go files under dir. */
function goFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** importedSymbols maps each library of LIBRARIES to the symbols Go's sources import from it. */
function importedSymbols(goroot) {
  const symbols = new Map(Object.keys(LIBRARIES).map((lib) => [lib, new Set()]));
  for (const file of goFiles(path.join(goroot, 'src'))) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes('go:cgo_import_dynamic')) continue;
    for (const [, symbol, lib] of text.matchAll(IMPORT)) symbols.get(lib)?.add(symbol);
  }
  return symbols;
}

/** tbd is a version 4 text stub of one library exporting symbols, for both macOS CPUs. */
function tbd(installName, symbols) {
  const list = [...symbols].sort().map((s) => `_${s}`).join(', ');
  return `--- !tapi-tbd
tbd-version:     4
targets:         [ x86_64-macos, arm64-macos ]
install-name:    '${installName}'
exports:
  - targets:         [ x86_64-macos, arm64-macos ]
    symbols:         [ ${list} ]
...
`;
}

const out = process.argv[2];
if (!out) throw new Error('usage: darwin-stubs.mjs <dir>');
const goroot = execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
for (const [lib, symbols] of importedSymbols(goroot)) {
  if (!symbols.size) throw new Error(`no symbol of ${lib} found in ${goroot}/src: has Go stopped importing it?`);
  const file = path.join(out, LIBRARIES[lib]);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, tbd(lib, symbols));
}
