// glibc.mjs reads which glibc versions an ELF binary's symbols need (readelf works for every
// architecture), so that the pack and its test can refuse a build that would not load on the
// oldest glibc we promise.
import { execFileSync } from 'node:child_process';

/** OLDEST_GLIBC is the oldest glibc the Linux gnu packages load on (RHEL 8, Ubuntu 20.04). */
export const OLDEST_GLIBC = '2.28';

/** glibcVersions lists the GLIBC_x.y versions the file's dynamic symbols are bound to. */
export function glibcVersions(file) {
  const out = execFileSync('readelf', ['--dyn-syms', '--wide', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return [...new Set([...out.matchAll(/@GLIBC_([0-9.]+)/g)].map((m) => m[1]))].sort(compareVersions);
}

/** compareVersions orders dotted versions numerically (2.3.2 < 2.17 < 2.28). */
export function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** tooNew lists the versions a file needs that OLDEST_GLIBC lacks. */
export function tooNew(file) {
  return glibcVersions(file).filter((v) => compareVersions(v, OLDEST_GLIBC) > 0);
}
