// The package ships the viewer: what `npm pack` puts in the main tarball holds the built page
// (dist/viewer), the server (dist/serve) and the command, the page loads nothing from another
// host, and `sessionkeep serve` run from a copy of exactly those files serves that page and
// its assets, so an installed package finds its viewer where a checkout does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openStore, tempDir } from './helpers/common.mjs';
import { ROOT } from './helpers/pack.mjs';
import { request, startServe } from './helpers/browser.mjs';

/** packedFiles lists the files `npm pack` puts in the main package, as paths inside it. */
function packedFiles() {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out)[0].files.map((f) => f.path);
}

test('the main package holds the built viewer, its server and the serve command; the page loads nothing from elsewhere', () => {
  const files = new Set(packedFiles());
  for (const f of ['dist/viewer/index.html', 'dist/viewer/app.js', 'dist/viewer/app.css', 'dist/serve/server.js', 'dist/cli/serve.js']) {
    assert.ok(files.has(f), `${f} is in the package`);
  }
  const html = fs.readFileSync(path.join(ROOT, 'dist', 'viewer', 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((r) => !r.startsWith('data:'));
  assert.ok(refs.length >= 2, `the page loads its script and style: ${refs}`);
  for (const ref of refs) {
    assert.match(ref, /^\/assets\//, `${ref} is served by serve itself`);
    assert.ok(files.has(`dist/viewer/${ref.slice('/assets/'.length)}`), `${ref} is in the package`);
  }
  assert.doesNotMatch(html, /\b(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//i, 'no URL of another host in the page');
});

test('serve run from the packed files serves the page and its assets', async (t) => {
  const dir = tempDir(t, 'sessionkeep-serve-pkg-');
  const pkg = path.join(dir, 'node_modules', 'sessionkeep');
  for (const f of packedFiles()) {
    fs.mkdirSync(path.dirname(path.join(pkg, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(pkg, f));
  }
  // the addon as a platform package would give it; the loader also finds it here
  fs.mkdirSync(path.join(pkg, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'build', 'Release', 'sessionkeep.node'), path.join(pkg, 'build', 'Release', 'sessionkeep.node'));
  const db = path.join(dir, 'sessions.db');
  openStore(db).close();

  const server = await startServe(db, [], path.join(pkg, 'dist', 'cli', 'main.js'));
  t.after(() => server.stop());
  const page = await request(server.port, '/');
  assert.equal(page.status, 200);
  assert.deepEqual(page.body, fs.readFileSync(path.join(pkg, 'dist', 'viewer', 'index.html')));
  for (const asset of ['app.js', 'app.css']) {
    const r = await request(server.port, `/assets/${asset}`);
    assert.equal(r.status, 200, asset);
    assert.deepEqual(r.body, fs.readFileSync(path.join(pkg, 'dist', 'viewer', asset)), asset);
    assert.match(r.headers['content-type'], asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
  }
});
