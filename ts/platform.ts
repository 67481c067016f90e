import * as fs from 'node:fs';

/** Libc is the C library family of a Linux process, as platform package names spell it. */
export type Libc = 'gnu' | 'musl';

/**
 * libcFromReportHeader reads the family from the header of a Node diagnostic report: Node
 * built against glibc records the glibc it runs on, and Node built against musl records none.
 */
export function libcFromReportHeader(header: { glibcVersionRuntime?: string }): Libc {
  return header.glibcVersionRuntime ? 'gnu' : 'musl';
}

/** libcFromLdd reads the family from what `ldd --version` printed (musl's ldd names itself). */
export function libcFromLdd(output: string): Libc {
  return /musl/i.test(output) ? 'musl' : 'gnu';
}

/**
 * libcFromInterpreter reads the family from the start of an ELF executable, where the path
 * of its dynamic loader is written (`/lib/ld-musl-x86_64.so.1`, `/lib64/ld-linux-x86-64.so.2`).
 */
export function libcFromInterpreter(head: Buffer): Libc | undefined {
  if (head.includes('/ld-musl-')) return 'musl';
  if (head.includes('/ld-linux')) return 'gnu';
  return undefined;
}

let detectedLibc: Libc | undefined;

/**
 * linuxLibc tells whether this Linux process runs on glibc or musl. Each way asks the running
 * Node, not the machine (a glibc machine may have musl's loader installed too): first the
 * loader its executable names, read from a few bytes of it; then the diagnostic report,
 * which costs milliseconds; then `ldd --version`. The answer is kept for the process's life.
 */
export function linuxLibc(): Libc {
  detectedLibc ??= interpreterLibc() ?? reportLibc() ?? lddLibc();
  return detectedLibc;
}

function interpreterLibc(): Libc | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(process.execPath, 'r');
    const head = Buffer.alloc(4096);
    return libcFromInterpreter(head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function reportLibc(): Libc | undefined {
  // excludeNetwork came in Node 20.13; older Nodes ignore it and include the interfaces.
  const report = process.report as (NodeJS.ProcessReport & { excludeNetwork?: boolean }) | undefined;
  if (typeof report?.getReport !== 'function') return undefined;
  // Leaving out the network interfaces keeps the report quick where there are many.
  const excludeNetwork = report.excludeNetwork;
  try {
    report.excludeNetwork = true;
    const header = (report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
    return header ? libcFromReportHeader(header) : undefined;
  } catch {
    return undefined;
  } finally {
    report.excludeNetwork = excludeNetwork;
  }
}

function lddLibc(): Libc {
  // child_process is required here, not at load: with the net and stream modules it brings,
  // it costs 2 MB of resident memory, and the process report usually answers without ldd.
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  try {
    return libcFromLdd(execFileSync('ldd', ['--version'], { encoding: 'utf8', stdio: 'pipe' }));
  } catch (err) {
    // musl's ldd prints its version on stderr and exits 1.
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    return libcFromLdd(`${stdout}${stderr}`);
  }
}

/**
 * platformId names the platform package this process needs, after the napi-rs convention:
 * `linux-x64-gnu`, `linux-arm64-musl`, `win32-x64`, `darwin-arm64`.
 */
export function platformId(platform: string = process.platform, arch: string = process.arch, libc?: Libc): string {
  if (platform !== 'linux') return `${platform}-${arch}`;
  return `${platform}-${arch}-${libc ?? linuxLibc()}`;
}

/** platformPackage is the npm package that holds the prebuilt addon for a platform id. */
export function platformPackage(id: string = platformId()): string {
  return `sessionkeep-${id}`;
}
