import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionError } from './errors';
import { platformId, platformPackage } from './platform';

/** ADDON_FILE is the addon's file name in a platform package and in a local build. */
export const ADDON_FILE = 'sessionkeep.node';

/** localBuildPath is where `make addon` and `sessionkeep build-addon` put the addon. */
export const localBuildPath = path.join(__dirname, '..', 'build', 'Release', ADDON_FILE);

/** ADDON_PATH_VARIABLE names the environment variable that points at an addon file elsewhere. */
export const ADDON_PATH_VARIABLE = 'SESSIONKEEP_ADDON_PATH';

/** BUILD_COMMAND is the one command that builds the addon from the package's own source. */
export const BUILD_COMMAND = 'npx sessionkeep build-addon';

/** platformsFile is the list of platforms the package is built for (native/packaging). */
const platformsFile = path.join(__dirname, '..', 'native', 'packaging', 'platforms.json');

/**
 * publishedPlatforms lists the ids of the platforms that have a platform package: every one
 * in native/packaging/platforms.json that is not `blocked`. The same file decides what
 * `make pack` packs, so a platform added there is named here with no other change.
 */
export function publishedPlatforms(file: string = platformsFile): string[] {
  try {
    const list = JSON.parse(fs.readFileSync(file, 'utf8')) as { id: string; blocked?: string }[];
    return list.filter((p) => !p.blocked).map((p) => p.id);
  } catch {
    return [];
  }
}

/**
 * asarUnpacked maps a path inside an Electron archive (`…/app.asar/…`) to the same path in
 * `app.asar.unpacked`, where electron-builder and Electron Forge put the files that
 * `asarUnpack` names. A native library can only be loaded from a real file, and require.resolve
 * inside an archive answers with the archive's path. Other paths are returned as they are.
 */
export function asarUnpacked(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** AddonSearch is where the loader looks; tests change it. */
export interface AddonSearch {
  /** addonPath is a file that replaces the search when set (default: $SESSIONKEEP_ADDON_PATH). */
  addonPath?: string;
  /** platform is the platform id whose package is looked for (default: this process's). */
  platform?: string;
  /** resolve finds a module's file as require.resolve does (default: require.resolve). */
  resolve?: (request: string) => string;
  /** localBuild is the local build's path (default: localBuildPath). */
  localBuild?: string;
}

/**
 * addonCandidates lists the addon files that exist, in the order they are tried: the file
 * that $SESSIONKEEP_ADDON_PATH names, alone when it is set; else the platform package's, then
 * the local build.
 */
export function addonCandidates(search: AddonSearch = {}): string[] {
  const addonPath = 'addonPath' in search ? search.addonPath : process.env[ADDON_PATH_VARIABLE];
  if (addonPath) return [realFile(path.resolve(addonPath))].filter((file): file is string => file !== undefined);
  const id = search.platform ?? platformId();
  const resolve = search.resolve ?? require.resolve;
  const found: string[] = [];
  try {
    found.push(resolve(`${platformPackage(id)}/${ADDON_FILE}`));
  } catch {
    // The platform package is not installed (another platform, --omit=optional, or none is
    // published for this one): the local build is next.
  }
  found.push(search.localBuild ?? localBuildPath);
  return found.map(realFile).filter((file): file is string => file !== undefined);
}

function realFile(file: string): string | undefined {
  const unpacked = asarUnpacked(file);
  if (unpacked !== file && fs.existsSync(unpacked)) return unpacked;
  return fs.existsSync(file) ? file : undefined;
}

/**
 * addonNotFound is the error for a platform with neither a platform package nor a build, in
 * one line: the package to install when one is published for the platform (else the
 * platforms that have one), and the one command that builds the addon from source.
 */
export function addonNotFound(id: string = platformId(), published: string[] = publishedPlatforms(), addonPath?: string): SessionError {
  const build = `or build it from source with Go 1.26+ and a C compiler: ${BUILD_COMMAND}`;
  if (addonPath) {
    return new SessionError(`sessionkeep has no native addon at ${addonPath}, which ${ADDON_PATH_VARIABLE} names: point it at a sessionkeep.node, unset it, ${build}`, 'ADDON_NOT_FOUND');
  }
  const install = published.includes(id)
    ? `install the package ${platformPackage(id)} (npm installs it with sessionkeep unless optional dependencies are omitted)`
    : `no prebuilt addon is published for it (only for ${published.join(', ')})`;
  return new SessionError(`sessionkeep has no native addon for ${id}: ${install}, ${build}`, 'ADDON_NOT_FOUND');
}

/**
 * unsupportedReason says why a platform cannot run the addon at all, or is undefined. Go's
 * c-shared libraries cannot be loaded by musl's dynamic linker (initial-exec TLS,
 * golang/go#54805; no argc/argv for init functions, golang/go#13492), so on musl neither a
 * package nor a source build can help until Go fixes that.
 */
export function unsupportedReason(id: string): string | undefined {
  if (!id.endsWith('-musl')) return undefined;
  return `sessionkeep cannot run on musl (${id}, e.g. Alpine) yet: musl cannot load a Go c-shared ` +
    `library (golang/go#54805, golang/go#13492); use a glibc-based image such as node:20-bookworm-slim`;
}

/**
 * loadAddon loads the first candidate that loads. One that exists but does not load (built
 * for a newer glibc, say) gives way to the next, so a source build can stand in for a
 * prebuilt one; when none loads, every failure is thrown as ADDON_LOAD_FAILED. On a platform
 * that cannot run the addon it throws ADDON_UNSUPPORTED before trying.
 */
export function loadAddon<T>(search: AddonSearch = {}): { addon: T; file: string } {
  const unsupported = unsupportedReason(search.platform ?? platformId());
  if (unsupported) throw new SessionError(unsupported, 'ADDON_UNSUPPORTED');
  const candidates = addonCandidates(search);
  if (candidates.length === 0) {
    const addonPath = 'addonPath' in search ? search.addonPath : process.env[ADDON_PATH_VARIABLE];
    throw addonNotFound(search.platform, undefined, addonPath || undefined);
  }
  const failures: string[] = [];
  for (const file of candidates) {
    try {
      return { addon: require(file) as T, file };
    } catch (err) {
      failures.push(`${file}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new SessionError(`sessionkeep could not load its native addon: ${failures.join('; ')}`, 'ADDON_LOAD_FAILED');
}
