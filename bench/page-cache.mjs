// page-cache.mjs: what the bench scripts share about the addon's file in the page cache.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * settlePageCache puts addon's pages in the page cache as a normal read leaves them, as after
 * a reboot and a first run. A file the linker has just written sits in larger page-cache
 * folios, and the kernel maps whole folios around each fault: loading it measured 2-5 MB more
 * resident than the same bytes read back (bench/README.md, round 5). Linux only: coreutils'
 * dd drops the file's cached pages (iflag=nocache), then the file is read once.
 */
export function settlePageCache(addon) {
  if (process.platform !== 'linux') return;
  const dropped = spawnSync('dd', [`if=${addon}`, 'iflag=nocache', 'count=0', 'status=none']);
  if (dropped.status === 0) fs.readFileSync(addon);
}
