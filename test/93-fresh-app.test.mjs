// A new app installs sessionkeep as a user would: `npm install` of the main tarball and the
// matching platform tarball from pack/ (dependencies from the registry), on a PATH with no Go
// and no C compiler. Then CommonJS, ESM, a worker thread, TypeScript against the shipped
// types, sessionkeep/ink and `npx sessionkeep ls` all work, and nothing was compiled: the
// addon comes from the platform package. The package has no install script: without the
// platform package the first call throws ADDON_NOT_FOUND naming `sessionkeep build-addon`,
// which with Go and a C compiler on PATH builds the addon from the shipped source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pkg, pathWithoutBuildTools, tarball } from './helpers/pack.mjs';
import { tempDir, packagingOnly } from './helpers/common.mjs';

const HOST = 'linux-x64-gnu';
// The versions this checkout builds with, so npm finds them in its cache.
const dev = (name) => `${name}@${pkg.devDependencies[name]}`;
const APP_DEPS = [dev('typescript'), dev('@types/node'), dev('ink'), dev('react'), dev('@types/react')];

/** newApp makes an app folder and an environment whose PATH has no Go and no C compiler. */
function newApp(t, { buildTools = false } = {}) {
  const dir = tempDir(t, 'sessionkeep-app-');
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  delete env.CC;
  for (const k of Object.keys(env)) if (k.startsWith('npm_') && !k.startsWith('npm_config_')) delete env[k];
  if (!buildTools) env.PATH = pathWithoutBuildTools(dir);
  return { app, env, db: path.join(dir, 'app.db') };
}

/** npmInstall installs into the app, showing the install scripts' output, and returns it. */
function npmInstall({ app, env }, specs) {
  const r = spawnSync('npm', ['install', '--foreground-scripts', '--prefer-offline', ...specs], { cwd: app, env, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm install failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout + r.stderr;
}

const node = ({ app, env }, args) => execFileSync(process.execPath, args, { cwd: app, env, encoding: 'utf8' });

test('a fresh app without Go or a C compiler installs the tarballs and uses every entry point', { skip: packagingOnly(),  timeout: 240_000 }, (t) => {
  const ctx = newApp(t);
  for (const tool of ['go', 'gcc', 'cc']) {
    assert.equal(spawnSync(tool, ['--version'], { env: ctx.env }).error?.code, 'ENOENT', `${tool} is out of PATH`);
  }
  const log = npmInstall(ctx, [tarball(), tarball(HOST), ...APP_DEPS]);
  assert.doesNotMatch(log, /building the native addon|no prebuilt addon/);
  const installed = path.join(ctx.app, 'node_modules', 'sessionkeep');
  assert.ok(!fs.existsSync(path.join(installed, 'build')), 'nothing was compiled into the package');
  const platformAddon = path.join(ctx.app, 'node_modules', `sessionkeep-${HOST}`, 'sessionkeep.node');

  const cjs = `const { openStore } = require('sessionkeep');
    const s = openStore(${JSON.stringify(ctx.db)});
    const session = s.createSession({ projectPath: '/work/app' });
    session.appendUserMessage('hello from CommonJS');
    s.close();
    console.log(JSON.stringify({ id: session.id, addon: Object.keys(require.cache).find((f) => f.endsWith('.node')) }));`;
  fs.writeFileSync(path.join(ctx.app, 'cjs.cjs'), cjs);
  const made = JSON.parse(node(ctx, ['cjs.cjs']));
  assert.equal(made.addon, platformAddon);

  const esm = `import { openStore, SessionError } from 'sessionkeep';
    const s = openStore(${JSON.stringify(ctx.db)});
    const [info] = s.listSessions({ all: true });
    console.log(JSON.stringify({ id: info.id, text: s.openSession(info.id).messages()[0].content[0].text, error: typeof SessionError }));
    s.close();`;
  assert.deepEqual(JSON.parse(node(ctx, ['--input-type=module', '-e', esm])), { id: made.id, text: 'hello from CommonJS', error: 'function' });

  fs.writeFileSync(path.join(ctx.app, 'worker.cjs'), `const { openStore } = require('sessionkeep');
    const { parentPort } = require('node:worker_threads');
    const s = openStore(${JSON.stringify(ctx.db)}); parentPort.postMessage(s.listSessions({ all: true }).length); s.close();`);
  const worker = `import { Worker } from 'node:worker_threads';
    new Worker('./worker.cjs').on('message', (n) => console.log(n));`;
  assert.equal(node(ctx, ['--input-type=module', '-e', worker]).trim(), '1');

  const ink = `import { usePersistentSession, SessionPicker, ContextMeter } from 'sessionkeep/ink';
    console.log([usePersistentSession, SessionPicker, ContextMeter].map((f) => typeof f).join(' '));`;
  assert.equal(node(ctx, ['--input-type=module', '-e', ink]).trim(), 'function function function');

  fs.writeFileSync(path.join(ctx.app, 'app.ts'), `import { openStore, SessionError, type Session } from 'sessionkeep';
import { usePersistentSession, type UsePersistentSessionOptions } from 'sessionkeep/ink';
const store = openStore('app.db');
const session: Session = store.createSession({ projectPath: process.cwd() });
session.ingest({ type: 'text', text: 'typed' });
const failure: SessionError = new SessionError('m', 'INTERNAL', { cause: new Error('why') });
const code: string = failure.code;
const options: UsePersistentSessionOptions | undefined = undefined;
export { code, options, usePersistentSession };
`);
  fs.writeFileSync(path.join(ctx.app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], jsx: 'react-jsx' },
    files: ['app.ts'],
  }));
  const tsc = spawnSync(process.execPath, [path.join(ctx.app, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', '-p', '.'], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);

  const ls = execFileSync('npx', ['--no-install', 'sessionkeep', 'ls', '--all', '--json', '--db', ctx.db], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(ls).map((s) => s.id), [made.id]);
  assert.ok(!fs.existsSync(path.join(installed, 'build')), 'still nothing compiled');
});

test('the package has no install script: without the platform package and without Go, the first use throws ADDON_NOT_FOUND naming build-addon', { skip: packagingOnly(),  timeout: 120_000 }, (t) => {
  const ctx = newApp(t);
  const log = npmInstall(ctx, ['--omit=optional', tarball()]);
  const installed = path.join(ctx.app, 'node_modules', 'sessionkeep');
  assert.equal(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).scripts?.install, undefined);
  assert.doesNotMatch(log, /sessionkeep: |building the native addon/);
  // Importing loads no addon; the first call does, and says what to do in one line.
  const r = spawnSync(process.execPath, ['-e', `const sk = require('sessionkeep'); try { sk.openStore(':memory:') } catch (e) { console.log(e.code, e.message) }`], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.match(r.stdout, new RegExp(`^ADDON_NOT_FOUND sessionkeep has no native addon for ${HOST}: install the package sessionkeep-${HOST} .*: npx sessionkeep build-addon\n$`));
  // The CLI's help needs no addon; build-addon says what is missing and fails.
  const help = spawnSync('npx', ['--no-install', 'sessionkeep', '--help'], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /\n {2}build-addon {4}/);
  const build = spawnSync('npx', ['--no-install', 'sessionkeep', 'build-addon'], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.equal(build.status, 1);
  assert.match(build.stderr, /cannot build the addon for linux-x64-gnu: this machine lacks Go 1\.26\+ \(no `go` on PATH\), a C compiler/);
});

test('without the platform package but with Go and a C compiler, sessionkeep build-addon builds a loadable addon from the shipped source', { skip: packagingOnly(),  timeout: 600_000 }, (t) => {
  const ctx = newApp(t, { buildTools: true });
  npmInstall(ctx, ['--omit=optional', tarball()]);
  const build = spawnSync('npx', ['--no-install', 'sessionkeep', 'build-addon'], { cwd: ctx.app, env: ctx.env, encoding: 'utf8' });
  assert.equal(build.status, 0, build.stderr);
  assert.match(build.stderr, /building the native addon for linux-x64-gnu from source/);
  const built = path.join(ctx.app, 'node_modules', 'sessionkeep', 'build', 'Release', 'sessionkeep.node');
  assert.equal(build.stdout, `built ${built}\n`);
  // The tarball has no tokenizer vocabulary (test 90): the build generated it from Go's module.
  assert.ok(fs.existsSync(path.join(ctx.app, 'node_modules', 'sessionkeep', 'session', 'tokens', 'o200k_base.vocab.gz')));
  const cjs = `const { openStore } = require('sessionkeep'); const s = openStore(${JSON.stringify(ctx.db)});
    s.createSession(); console.log(s.listSessions({ all: true }).length, Object.keys(require.cache).find((f) => f.endsWith('.node'))); s.close();`;
  assert.equal(node(ctx, ['-e', cjs]).trim(), `1 ${built}`);
});
