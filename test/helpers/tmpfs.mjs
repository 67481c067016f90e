// A small tmpfs of its own, for tests of a full or read-only disk.

// `node --test test/` runs every script under test/ as a test file; this one only exports.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * mountTmpfs mounts a tmpfs of `size` (mount's notation: '2m') on a new folder, unmounted
 * after the test, and returns the folder; or, where mounting is refused (not root, no
 * CAP_SYS_ADMIN in a container), returns undefined with the reason in `skipReason`.
 */
export function mountTmpfs(t, size) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    fs.rmdirSync(dir);
    return { skipReason: `cannot mount a tmpfs here (${String(e.stderr || e.message).trim()}); a full disk needs one` };
  }
  t.after(() => {
    execFileSync('umount', ['-l', dir]);
    fs.rmdirSync(dir);
  });
  return { dir };
}

/** remount remounts the tmpfs on dir with options (such as 'ro' or 'rw'). */
export function remount(dir, options) {
  execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });
}

/** fill writes the file at path until the disk is full, and returns how many bytes it took. */
export function fill(file) {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  let written = 0;
  try {
    for (;;) written += fs.writeSync(fd, chunk);
  } catch (e) {
    if (e.code !== 'ENOSPC') throw e;
    // The last bytes the disk has: a write smaller than the chunk may still fit.
    for (let n = 4096; n >= 1; n >>= 1) {
      try {
        for (;;) written += fs.writeSync(fd, chunk, 0, n);
      } catch (e2) {
        if (e2.code !== 'ENOSPC') throw e2;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
