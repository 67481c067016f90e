// Loading the addon hands back the pages of its read-only segments that loading mapped
// (native/loadpages_linux.c), except under a debugger, where a breakpoint may live in them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { tempDir, runNode, helper } from './helpers/common.mjs';

const linux = process.platform === 'linux';
const child = helper('load-pages-child.cjs');

test('the relocation table the loader read once is no longer resident after load', { skip: !linux && 'Linux only' }, async (t) => {
  const { code, stdout, stderr } = await runNode(child, [tempDir(t)]);
  assert.equal(code, 0, stderr);
  const segment = JSON.parse(stdout);
  assert.match(segment.read, /hello/, 'the store works after the pages are handed back');
  assert.ok(segment.size > 1024, `the addon's first segment is ${segment.size} kB`);
  // Without the release the loader's pass over the relocations leaves all of it resident.
  assert.ok(segment.rss < segment.size / 2, `${segment.rss} of ${segment.size} kB still resident`);
});

const strace = linux && spawnSync('strace', ['-V']).status === 0;

test('under a tracer the pages are kept, so breakpoints set in them stay', { skip: !strace && 'needs strace' }, (t) => {
  const run = spawnSync('strace', ['-f', '-e', 'trace=none', '-o', '/dev/null', process.execPath, child, tempDir(t)], { encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const segment = JSON.parse(run.stdout);
  assert.match(segment.read, /hello/);
  assert.ok(segment.rss > segment.size * 0.9, `${segment.rss} of ${segment.size} kB resident under the tracer`);
});
