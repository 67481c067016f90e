// The library never reaches into the command line (issue 34): what `sessionkeep`,
// `sessionkeep/ink` and the SDK entry points load, the slash commands with them, takes its
// renderers from dist/render, which the CLI imports too; nothing under dist/cli is loaded
// by an app that imports the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** entries are the files the package's exports map names, but its own package.json. */
function entries() {
  return Object.entries(pkg.exports)
    .filter(([name]) => name !== './package.json')
    .map(([, target]) => path.join(ROOT, target.default ?? target.import));
}

/** relativeImports are the files a compiled module requires or imports by a relative path. */
function relativeImports(file) {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:require\(|from |import\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return specs.map((s) => {
    const target = path.resolve(path.dirname(file), s);
    const found = [target, `${target}.js`, path.join(target, 'index.js')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
    assert.ok(found, `${path.relative(ROOT, file)} imports ${s}, which is not in dist`);
    return found;
  });
}

/** reachable walks the relative import graph from the entries. */
function reachable(starts) {
  const seen = new Set();
  const queue = [...starts];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...relativeImports(file));
  }
  return seen;
}

test('no module the package exports reaches dist/cli', () => {
  const files = reachable(entries());
  assert.ok(files.has(path.join(DIST, 'commands', 'index.js')), 'the slash commands are part of what the package loads');
  assert.ok(files.has(path.join(DIST, 'render', 'details.js')), 'the slash commands render with dist/render');
  const cli = [...files].filter((f) => f.startsWith(path.join(DIST, 'cli') + path.sep)).map((f) => path.relative(ROOT, f));
  assert.deepEqual(cli, []);
});

test('the CLI and the slash commands share the renderers of dist/render', () => {
  const cli = reachable([path.join(ROOT, pkg.bin.sessionkeep)]);
  for (const name of ['details.js', 'session-table.js', 'style.js']) {
    assert.ok(cli.has(path.join(DIST, 'render', name)), `the CLI renders with dist/render/${name}`);
  }
});
