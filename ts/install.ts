// install.ts is the package's npm install step (dist/install.js). A prebuilt platform package
// or an existing build needs nothing; otherwise the addon is built from source when Go and a
// C compiler are there. When they are not, it explains what to do and exits 0: npm shows a
// failing install as a stack of its own and rolls back the whole `npm install`, for a
// package whose loader will say the same thing (ADDON_NOT_FOUND) at the first use.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { addonCandidates, unsupportedReason } from './loader';
import { platformId, platformPackage } from './platform';

const packageRoot = path.join(__dirname, '..');

/** runs tells whether a command can be started with these arguments and exits 0. */
function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** missingTools lists what a source build needs and this machine lacks. */
function missingTools(env: NodeJS.ProcessEnv = process.env): string[] {
  const missing: string[] = [];
  if (!runs('go', ['version'])) missing.push('Go 1.26+ (go)');
  const compilers = env.CC ? [env.CC.split(/\s+/)[0]] : ['gcc', 'cc', 'clang'];
  if (!compilers.some((cc) => runs(cc, ['--version']))) missing.push('a C compiler (gcc or clang, or $CC)');
  if (!runs('sh', ['-c', 'exit 0'])) missing.push('a POSIX shell (sh)');
  return missing;
}

/** noBuildParagraph is what an install without a prebuilt addon and without tools prints. */
function noBuildParagraph(id: string, missing: string[]): string {
  return [
    `sessionkeep: no prebuilt addon for ${id} is installed, and a source build needs`,
    `${missing.join(', ')}. Prebuilt addons come as the optional package ${platformPackage(id)}`,
    `(linux x64/arm64 with glibc 2.28+, win32 x64): reinstall without --omit=optional`,
    `or --no-optional, and with a lockfile made on another platform run \`npm install\` again.`,
    `To build from source, install Go 1.26+ and a C compiler, then run`,
    `\`SESSIONKEEP_BUILD_FROM_SOURCE=1 npm rebuild sessionkeep\`. Until then, loading sessionkeep`,
    `throws SessionError ADDON_NOT_FOUND.`,
  ].join('\n');
}

/** buildFromSource runs the same build as `make addon`; it returns the exit status. */
function buildFromSource(): number {
  console.error('sessionkeep: building the native addon from source (Go, cgo)…');
  const build = spawnSync('sh', [path.join(packageRoot, 'native', 'build-addon.sh')], { cwd: packageRoot, stdio: 'inherit' });
  return build.status ?? 1;
}

function main(): number {
  const forced = process.env.SESSIONKEEP_BUILD_FROM_SOURCE === '1';
  const unsupported = unsupportedReason(platformId());
  if (unsupported) {
    // A build would succeed and still not load; say so once instead of compiling for minutes.
    console.error(`${unsupported}.`);
    return forced ? 1 : 0;
  }
  if (!forced && addonCandidates().length > 0) return 0;
  const missing = missingTools();
  if (missing.length > 0) {
    console.error(noBuildParagraph(platformId(), missing));
    // A build that was asked for and cannot run fails the install; see the file comment.
    return forced ? 1 : 0;
  }
  return buildFromSource();
}

if (require.main === module) process.exitCode = main();
