// sessionkeep/ink: the Ink kit's own ES module entry beside the CommonJS core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The Ink under test: this checkout's (Ink 6), or under `make test-matrix` the newest major
// installed in $SESSIONKEEP_TEST_INK, which test/matrix/resolve-ink-newest.mjs resolves to.
const INK_HOME = process.env.SESSIONKEEP_TEST_INK ? path.resolve(process.env.SESSIONKEEP_TEST_INK) : ROOT;

test('dist/ink/index.js loads with import() and exports the hook, the components and the formatters', async () => {
  const kit = await import('../dist/ink/index.js');
  assert.deepEqual(Object.keys(kit).sort(), ['CommandCompletions', 'ContextMeter', 'SessionPicker', 'formatRelativeTime', 'formatTokens', 'usePersistentSession', 'useSessionCommands']);
  for (const name of Object.keys(kit)) assert.equal(typeof kit[name], 'function', name);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/ink/package.json'), 'utf8')), { type: 'module' });
  assert.ok(fs.existsSync(path.join(ROOT, 'dist/ink/index.d.ts')));
});

test('package.json maps sessionkeep/ink to the ES module, with Ink and React as optional peers', () => {
  const pkg = require('../package.json');
  assert.deepEqual(pkg.exports['./ink'], { types: './dist/ink/index.d.ts', import: './dist/ink/index.js' });
  assert.ok(pkg.peerDependencies.ink && pkg.peerDependencies.react);
  // Every peer (Ink, React, the agent SDKs of the plug-ins) is optional: the core needs none.
  for (const name of Object.keys(pkg.peerDependencies)) assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, name);
  // The versions developed against satisfy the peer ranges.
  assert.match(pkg.devDependencies.ink, /^6\./);
  assert.match(pkg.devDependencies.react, /^19\./);
});

test('the peer ranges take the newest Ink the matrix runs, and the tests run the Ink and React under test', async () => {
  const pkg = require('../package.json');
  const newest = require('./matrix/ink-newest/package.json').dependencies;
  const majors = (range) => [...range.matchAll(/\^(\d+)\./g)].map((m) => m[1]);
  assert.ok(majors(pkg.peerDependencies.ink).includes(newest.ink.split('.')[0]), `ink ${newest.ink} is outside ${pkg.peerDependencies.ink}`);
  assert.ok(majors(pkg.peerDependencies.react).includes(newest.react.split('.')[0]), `react ${newest.react} is outside ${pkg.peerDependencies.react}`);
  // One React for Ink, the kit and the tests, the one installed beside the Ink under test.
  const home = (name) => fs.realpathSync(path.join(INK_HOME, 'node_modules', name)) + path.sep;
  for (const name of ['ink', 'react', 'ink-testing-library']) {
    assert.ok(fileURLToPath(import.meta.resolve(name)).startsWith(home(name)), `${name} resolves to ${import.meta.resolve(name)}, not into ${home(name)}`);
  }
  const React = (await import('react')).default;
  assert.equal(React.version, require(path.join(INK_HOME, 'node_modules/react/package.json')).version);
});

test('an app with the package installed imports sessionkeep and sessionkeep/ink, renders the kit, and type-checks against it', async (t) => {
  const dir = tempDir(t, 'sessionkeep-ink-consumer-');
  const app = path.join(dir, 'app');
  const modules = path.join(app, 'node_modules');
  // The package as npm unpacks it: a real folder in node_modules, not a link to this checkout.
  const pkg = path.join(modules, 'sessionkeep');
  fs.mkdirSync(path.join(pkg, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  fs.cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'build/Release/sessionkeep.node'), path.join(pkg, 'build/Release/sessionkeep.node'));
  // The peers the app brings: the very packages under test (Ink, React and its types).
  for (const [name, home] of [['ink', INK_HOME], ['react', INK_HOME], ['@types/react', INK_HOME], ['@types/node', ROOT]]) {
    fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    fs.symlinkSync(path.join(home, 'node_modules', name), path.join(modules, name));
  }
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}');

  const db = path.join(dir, 'app.db');
  fs.writeFileSync(path.join(app, 'main.js'), `
    import React from 'react';
    import { renderToString, Text } from 'ink';
    import { openStore } from 'sessionkeep';
    import { ContextMeter, SessionPicker } from 'sessionkeep/ink';
    const store = openStore(${JSON.stringify(db)});
    const s = store.createSession({ projectPath: '/work/app' });
    s.appendUserMessage('Picked from the app');
    const h = React.createElement;
    const out = renderToString(h(React.Fragment, null,
      h(ContextMeter, { tokens: 5000, contextWindow: 10000, width: 4 }),
      h(Text, null, '\\n'),
      h(SessionPicker, { sessions: store.listSessions({ projectPath: '/work/app' }), onResume() {} })));
    store.close();
    console.log(out);
  `);
  const out = execFileSync(process.execPath, ['main.js'], { cwd: app, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  assert.match(out, /Context ██░│░ 50% · 5k\/10k/);
  assert.match(out, /▸ just now\s+"Picked from the app"\s+1 message/);

  // The kit's declarations reach the core's: misuse is a type error, so the types are not `any`.
  fs.writeFileSync(path.join(app, 'app.tsx'), `
    import { openStore, type TokenTracker } from 'sessionkeep';
    import { usePersistentSession, ContextMeter } from 'sessionkeep/ink';
    const store = openStore();
    export function App() {
      const s = usePersistentSession({ store, create: { model: 'm' } });
      const usage: TokenTracker = s.tokenUsage;
      // @ts-expect-error status is a union of known strings
      const wrong: 'done' = s.status;
      // @ts-expect-error ingest takes stream chunks
      s.ingest({ type: 'no such chunk' });
      return <ContextMeter tokens={usage.contextTokens} contextWindow={200000} />;
    }
  `);
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', jsx: 'react-jsx', strict: true, noEmit: true, types: ['node'] },
    files: ['app.tsx'],
  }));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: app, encoding: 'utf8' });
  } catch (err) {
    assert.fail(`the app does not type-check:\n${err.stdout}`);
  }
});

test('require() of the ESM-only entry fails clearly instead of half-loading', () => {
  // Ink awaits at its top level, so no Node version can require() it; the export map only
  // offers the kit to import.
  assert.throws(() => require('sessionkeep/ink'), (err) => ['ERR_PACKAGE_PATH_NOT_EXPORTED', 'MODULE_NOT_FOUND'].includes(err.code));
});
