// lean-lock.mjs keeps the Claude Agent SDK's platform binaries (384 MB on linux-x64) out of
// package-lock.json, so that `npm ci` installs the SDK's JavaScript and types but not the
// binary that only test 54's real query() runs; that test fetches it into build/ on demand
// (test/helpers/claude-code-binary.mjs). `npm install` writes the packages back into the
// lock; the Makefile runs this before every `npm ci`, and it rewrites the lock only then.
import fs from 'node:fs';
import path from 'node:path';

const SDK = 'node_modules/@anthropic-ai/claude-agent-sdk';
const file = process.argv[2] ?? path.join(import.meta.dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const platform = (key) => key.startsWith(`${SDK}-`);
const dropped = Object.keys(lock.packages).filter(platform);
const sdk = lock.packages[SDK];
if (dropped.length === 0 && !sdk?.optionalDependencies) process.exit(0);
for (const key of dropped) delete lock.packages[key];
if (sdk) delete sdk.optionalDependencies;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.error(`lean-lock: ${path.basename(file)} no longer installs ${dropped.length} platform binaries of the Claude Agent SDK (test 54 fetches its own)`);
