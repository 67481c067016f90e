// The package entry: CommonJS require and ESM import expose the same API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

test('require() and import() of dist/index.js both expose openStore and SessionError', async (t) => {
  const cjs = require('../dist/index.js');
  const esm = await import('../dist/index.js');
  for (const api of [cjs, esm]) {
    assert.equal(typeof api.openStore, 'function');
    assert.equal(typeof api.SessionError, 'function');
    assert.equal(typeof api.Store, 'function');
    assert.equal(typeof api.Session, 'function');
  }
  assert.equal(esm.openStore, cjs.openStore);
  assert.equal(esm.SessionError, cjs.SessionError);
  assert.equal(esm.default.openStore, cjs.openStore);

  const e = new esm.SessionError('message', 'SOME_CODE');
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'SessionError');
  assert.equal(e.code, 'SOME_CODE');

  // Errors from native code are instances of the exported class, whichever way it was loaded.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = esm.openStore(path.join(dir, 'pkg.db'));
  t.after(() => store.close());
  assert.throws(() => store.openSession('missing'), (err) => err instanceof cjs.SessionError && err.code === 'SESSION_NOT_FOUND');
});

test('package.json points main and exports at dist/index.js', () => {
  const pkg = require('../package.json');
  assert.equal(require.resolve('../' + pkg.main), require.resolve('../dist/index.js'));
  assert.equal(pkg.exports['.'].default, './dist/index.js');
  assert.ok(fs.existsSync(new URL('../dist/index.d.ts', import.meta.url)));
});
