// The release workflow (.github/workflows/release.yml) cannot run here: actionlint (the Go
// module github.com/rhysd/actionlint at the version the Makefile pins, ACTIONLINT) checks it,
// and this test checks that it runs the suite on a native runner for every shipped platform
// but the blocked musl ones, and publishes only after all of them, with provenance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, shipped } from './helpers/pack.mjs';
import { tempDir, packagingOnly } from './helpers/common.mjs';

const ACTIONLINT = process.env.ACTIONLINT;
const WORKFLOW = path.join(ROOT, '.github', 'workflows', 'release.yml');

function actionlint(file) {
  assert.ok(ACTIONLINT && fs.existsSync(ACTIONLINT), 'ACTIONLINT names the actionlint binary (make test-node sets it)');
  return spawnSync(ACTIONLINT, ['-no-color', '-shellcheck=', '-pyflakes=', file], { encoding: 'utf8' });
}

test('actionlint passes the release workflow, and fails it with a job that needs one that is not there', { skip: packagingOnly() }, (t) => {
  const ok = actionlint(WORKFLOW);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  const broken = path.join(tempDir(t), 'release.yml');
  fs.writeFileSync(broken, fs.readFileSync(WORKFLOW, 'utf8').replace('needs: [pack, test]', 'needs: [pack, tests]'));
  const bad = actionlint(broken);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /job "publish" needs job "tests" which does not exist/);
});

test('the release workflow tests each shipped platform on its own runner and publishes after all of them, with provenance', { skip: packagingOnly() }, () => {
  const text = fs.readFileSync(WORKFLOW, 'utf8');
  const matrix = [...text.matchAll(/- \{ runner: ([\w.-]+), platform: ([\w-]+) \}/g)].map((m) => [m[2], m[1]]);
  assert.deepEqual(Object.fromEntries(matrix), {
    'darwin-arm64': 'macos-14', 'darwin-x64': 'macos-15-intel', 'win32-x64': 'windows-latest',
    'linux-x64-gnu': 'ubuntu-24.04', 'linux-arm64-gnu': 'ubuntu-24.04-arm',
  });
  assert.deepEqual(matrix.map(([id]) => id).sort(), shipped.map((p) => p.id).sort());
  const publish = text.slice(text.indexOf('\n  publish:'));
  assert.match(publish, /needs: \[pack, test\]/);
  assert.match(publish, /id-token: write/);
  assert.match(publish, /npm publish --provenance/);
  assert.match(text, /fail-fast: false/);
});
