// Plumbing for the distribution tests (90-94): the tarballs `make pack` wrote, the platform
// list, and a PATH without Go or a C compiler, as a user's machine has.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACK = path.join(ROOT, 'pack');
export const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
export const platforms = JSON.parse(fs.readFileSync(path.join(ROOT, 'native', 'packaging', 'platforms.json'), 'utf8'));
export const shipped = platforms.filter((p) => !p.blocked);

/** tarball is the path of a tarball in pack/: the main one, or a platform's by id. */
export function tarball(id) {
  const name = id ? `${pkg.name}-${id}-${pkg.version}.tgz` : `${pkg.name}-${pkg.version}.tgz`;
  return path.join(PACK, name);
}

/** tarFiles lists the files in a tarball. */
export function tarFiles(file) {
  return execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).trim().split('\n');
}

/** tarRead reads one file of a tarball. */
export function tarRead(file, member) {
  return execFileSync('tar', ['xzOf', file, member], { maxBuffer: 256 << 20 });
}

/** extract unpacks a tarball's package/ folder into dir (as npm would). */
export function extract(file, dir) {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['xzf', file, '-C', dir, '--strip-components=1']);
}

/** BUILD_TOOL matches the commands a source build would need: Go and C compilers. */
const BUILD_TOOL = /^(go|gofmt|cc|c\+\+|gcc|g\+\+|clang|clang\+\+|tcc|musl-gcc)(-[\d.]+)?$|-(gcc|g\+\+|cc|c\+\+)(-[\d.]+)?$/;

/**
 * pathWithoutBuildTools makes a folder of links to every command on PATH except Go and the
 * C compilers, and returns it as a PATH; node, npm, sh, tar stay reachable.
 */
export function pathWithoutBuildTools(dir) {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) {
    let names = [];
    try { names = fs.readdirSync(d); } catch { continue; }
    for (const name of names) {
      const link = path.join(bin, name);
      if (BUILD_TOOL.test(name) || fs.existsSync(link)) continue;
      fs.symlinkSync(path.join(d, name), link);
    }
  }
  return bin;
}
