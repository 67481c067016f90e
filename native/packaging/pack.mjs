// pack.mjs writes every installable tarball to pack/: one package per platform holding its
// prebuilt addon (built before by `make pack` with native/build-addon.sh into
// build/pack/<platform>/), and the main package, which lists them as optionalDependencies at
// its own version so npm installs only the one whose os, cpu and libc match (the napi-rs
// convention). It refuses a glibc build that needs a glibc newer than OLDEST_GLIBC and a main
// package that would ship tests. A platform marked `blocked` in platforms.json is built (its
// test checks the reason still holds) but not packed, nor listed: it would not load.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OLDEST_GLIBC, glibcVersions, tooNew } from './glibc.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const out = path.join(root, 'pack');
const stage = path.join(root, 'build', 'pack');
const main = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const allPlatforms = JSON.parse(fs.readFileSync(path.join(root, 'native', 'packaging', 'platforms.json'), 'utf8'));
const platforms = allPlatforms.filter((p) => !p.blocked);

/** npmPack packs a folder into pack/ and returns the tarball's file name. */
function npmPack(dir) {
  const [info] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }));
  return info.filename;
}

/** platformManifest is the package.json of one platform package. */
function platformManifest(p) {
  return {
    name: `${main.name}-${p.id}`,
    version: main.version,
    description: `The prebuilt ${main.name} addon for ${p.id}.`,
    license: main.license,
    os: [p.os],
    cpu: [p.cpu],
    ...(p.libc ? { libc: [p.libc] } : {}),
    main: 'sessionkeep.node',
    files: ['sessionkeep.node'],
  };
}

function packPlatform(p) {
  const addon = path.join(stage, p.id, 'sessionkeep.node');
  if (p.libc === 'glibc') {
    const newer = tooNew(addon);
    if (newer.length) throw new Error(`${p.id}: needs GLIBC_${newer.join(', GLIBC_')}, newer than ${OLDEST_GLIBC}; pin the symbols in native/glibc-pins.h`);
  }
  const dir = path.join(stage, p.id, 'package');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(addon, path.join(dir, 'sessionkeep.node'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(platformManifest(p), null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'README.md'), `# ${main.name}-${p.id}\n\nThe prebuilt native addon of \`${main.name}\` for ${p.id}. Install \`${main.name}\`; npm picks this package when it matches.\n`);
  const minGlibc = p.libc === 'glibc' ? glibcVersions(addon).at(-1) : '';
  return { file: npmPack(dir), addonBytes: fs.statSync(addon).size, minGlibc };
}

/** TEST_FILE matches what the main package must not ship. */
const TEST_FILE = /(^|\/)(test|tests|testdata)\/|_test\.go$|\.test\.m?js$/;

function packMain() {
  const [listing] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }));
  const files = listing.files.map((f) => f.path);
  const tests = files.filter((f) => TEST_FILE.test(f));
  if (tests.length) throw new Error(`the main package would ship tests: ${tests.join(', ')}`);
  const dir = path.join(stage, 'main');
  fs.rmSync(dir, { recursive: true, force: true });
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(dir, f));
  }
  const manifest = { ...main, optionalDependencies: Object.fromEntries(platforms.map((p) => [`${main.name}-${p.id}`, main.version])) };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return { file: npmPack(dir), files: files.length };
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out);
const rows = platforms.map((p) => ({ id: p.id, ...packPlatform(p) }));
const mainPack = packMain();
const mb = (n) => (n / 1e6).toFixed(1) + ' MB';
console.log(`pack/${mainPack.file}  ${mb(fs.statSync(path.join(out, mainPack.file)).size)}  (${mainPack.files} files)`);
for (const r of rows) {
  const glibc = r.minGlibc ? `  needs glibc ${r.minGlibc}` : '';
  console.log(`pack/${r.file}  ${mb(fs.statSync(path.join(out, r.file)).size)}  (addon ${mb(r.addonBytes)})${glibc}`);
}
for (const p of allPlatforms.filter((p) => p.blocked)) console.log(`not packed: ${p.id}: ${p.blocked}`);
