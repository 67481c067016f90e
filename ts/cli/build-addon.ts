// `sessionkeep build-addon` builds the native addon from the Go source the package ships, for
// a platform with no prebuilt package (or a libc too old for it). It replaces an npm install
// script: nothing runs at install, and the build runs when asked for, under any package
// manager. It needs no store and no addon.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { ADDON_PATH_VARIABLE, localBuildPath, unsupportedReason } from '../loader';
import { platformId } from '../platform';
import { stringOption, type Parsed } from './args';
import type { Standalone } from './command';

/** GO_MINIMUM is the oldest Go that builds the addon (go.mod's go line). */
export const GO_MINIMUM: readonly [number, number] = [1, 26];

const packageRoot = path.join(__dirname, '..', '..');

/** goVersion reads `go version`'s output (`go version go1.26.1 linux/amd64`) as [major, minor]. */
export function goVersion(output: string): [number, number] | undefined {
  const m = /\bgo(\d+)\.(\d+)/.exec(output);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** output runs a command and returns what it printed, or undefined when it cannot run or fails. */
function output(command: string, args: string[]): string | undefined {
  const r = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return r.status === 0 ? `${r.stdout}${r.stderr}` : undefined;
}

/** missingTools lists what a build needs and this machine lacks, each as a user would install it. */
export function missingTools(env: NodeJS.ProcessEnv = process.env): string[] {
  const missing: string[] = [];
  const go = output('go', ['version']);
  const version = go === undefined ? undefined : goVersion(go);
  if (go === undefined) missing.push('Go 1.26+ (no `go` on PATH)');
  else if (!version || version[0] < GO_MINIMUM[0] || (version[0] === GO_MINIMUM[0] && version[1] < GO_MINIMUM[1])) {
    missing.push(`Go 1.26+ (\`go version\` says ${go.trim()})`);
  }
  const compilers = env.CC ? [env.CC.split(/\s+/)[0]] : ['gcc', 'cc', 'clang'];
  if (!compilers.some((cc) => output(cc, ['--version']) !== undefined)) missing.push(`a C compiler (${env.CC ? `$CC is ${env.CC}` : 'gcc or clang, or $CC'})`);
  if (output('sh', ['-c', 'echo']) === undefined) missing.push('a POSIX shell (sh)');
  return missing;
}

/**
 * buildAddon is `sessionkeep build-addon [--out <file>]`; it returns the exit status: 0 when
 * the addon was built, 1 when it cannot be (what is missing is said on stderr).
 */
export const buildAddon: Standalone = {
  name: 'build-addon',
  summary: 'build the native addon from source (Go 1.26+ and a C compiler), where no prebuilt one fits',
  usage: 'build-addon [--out <file>]',
  options: { out: { type: 'string' } },
  run: build,
};

function build(args: Parsed): number {
  const out = path.resolve(stringOption(args, 'out') ?? localBuildPath);
  const unsupported = unsupportedReason(platformId());
  if (unsupported) {
    process.stderr.write(`sessionkeep build-addon: ${unsupported}\n`);
    return 1;
  }
  const missing = missingTools();
  if (missing.length > 0) {
    process.stderr.write(`sessionkeep build-addon: cannot build the addon for ${platformId()}: this machine lacks ${missing.join(', ')}\n`);
    return 1;
  }
  process.stderr.write(`sessionkeep build-addon: building the native addon for ${platformId()} from source (Go, cgo)…\n`);
  const build = spawnSync('sh', [path.join(packageRoot, 'native', 'build-addon.sh'), '', out], { cwd: packageRoot, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) {
    process.stderr.write(`sessionkeep build-addon: the build failed (exit ${build.status ?? build.signal})\n`);
    return 1;
  }
  const where = out === localBuildPath ? '' : `; set ${ADDON_PATH_VARIABLE}=${out} to use it`;
  process.stdout.write(`built ${out}${where}\n`);
  return 0;
}
