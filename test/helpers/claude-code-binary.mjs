// claudeCodeBinary returns the path of the Claude Code binary that the installed
// @anthropic-ai/claude-agent-sdk runs, for query()'s pathToClaudeCodeExecutable. npm ci does
// not install it (test/helpers/lean-lock.mjs keeps it out of the lock: 384 MB that one test
// runs), so the first call fetches the SDK's platform package of the same version from the
// npm registry (`npm pack`, which checks the registry's integrity hash) into
// build/claude-agent-sdk/, as the Makefile caches the Node matrix's Nodes; later calls reuse it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..', '..');
const SDK = '@anthropic-ai/claude-agent-sdk';

// platformPackage names the SDK's package holding the binary for this machine.
function platformPackage() {
  const { platform, arch } = process;
  if (platform !== 'linux') return `${SDK}-${platform}-${arch}`;
  const glibc = process.report.getReport().header.glibcVersionRuntime !== undefined;
  return `${SDK}-linux-${arch}${glibc ? '' : '-musl'}`;
}

export function claudeCodeBinary() {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', SDK, 'package.json'), 'utf8'));
  const name = platformPackage();
  const dir = path.join(ROOT, 'build', 'claude-agent-sdk', `${name.split('/')[1]}-${version}`);
  const binary = path.join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const partial = fs.mkdtempSync(`${dir}.partial-`);
  try {
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', partial], { encoding: 'utf8' }).trim();
    execFileSync('tar', ['xzf', path.join(partial, tarball), '--strip-components=1', '-C', partial]);
    fs.rmSync(path.join(partial, tarball));
    // The rename is atomic: a run killed mid-fetch leaves a .partial folder, never a half binary.
    fs.renameSync(partial, dir);
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(binary)) throw err;
  }
  return binary;
}
