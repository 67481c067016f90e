// The package's types as a TypeScript user meets them (issue 34): snippets that depend on
// sessionkeep are compiled with tsc --strict as CommonJS and as ESM against the package's
// own exports and .d.ts, then run. `Block` narrows on `type`, SessionError's code is a union,
// ContextResult's messages are typed, `using` closes a store and a session, and the names of
// the naming pass (details(), format, unprunedTurns) are what the types offer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The snippet: what compiles says what the types allow; each @ts-expect-error what they refuse. */
const SNIPPET = `
import { openStore, SessionError } from 'sessionkeep';
import type { Block, ContextMessage, ContextResult, SessionErrorCode, UnknownBlock } from 'sessionkeep';

export function describe(b: Block): string {
  if (b.type === 'text') return b.text.toUpperCase();
  switch (b.type) {
    case 'tool_use': return b.name.toUpperCase();
    case 'tool_result': return b.tool_use_id;
    case 'thinking': return b.thinking.slice(0, 10);
    case 'redacted_thinking': return b.data;
    case 'image': case 'document': return String(b.source.media_type);
    case 'refusal': return b.refusal;
    case 'reasoning': return String(b.summary?.length);
    case 'history_start': case 'history_change': return b.by;
    case 'openai_item': case 'ui_message': return b.type;
    default: {
      const unknown: UnknownBlock = b;
      return String(unknown.type);
    }
  }
}

export function codeOf(err: unknown): SessionErrorCode | undefined {
  if (!(err instanceof SessionError)) return undefined;
  if (err.code === 'AMBIGUOUS_ID' || err.code === 'ADDON_NOT_FOUND') return err.code;
  // @ts-expect-error AMBIGUOUS is not a code: the slash commands answer AMBIGUOUS_ID too
  if (err.code === 'AMBIGUOUS') return undefined;
  return err.code;
}

export function roles(result: ContextResult): string[] {
  const first: ContextMessage | undefined = result.messages[0];
  // @ts-expect-error messages are typed, not any
  const wrong: number = result.messages[0];
  void wrong;
  return first ? [first.role] : [];
}

const withCause = new SessionError('wrapped', 'INTERNAL', { cause: new Error('inner') });
// @ts-expect-error a code outside the union
new SessionError('x', 'NOT_A_CODE');

let texts: string[];
let named: { interactions: number; formats: string[] };
{
  // using closes the session, then the store, at the end of the block.
  using store = openStore(process.argv[2]);
  using s = store.createSession();
  s.appendUserMessage([{ type: 'text', text: 'hello' }]);
  texts = s.messages().flatMap((m) => m.content).map(describe);
  // The names of the naming pass: details(), a context's format, unprunedTurns.
  const built = s.buildContext({ contextWindow: 8000, format: 'openai', unprunedTurns: 2 });
  // @ts-expect-error provider is the vendor that answered; the API a context is in is its format
  s.buildContext({ contextWindow: 8000, provider: 'openai' });
  named = { interactions: s.details().interactions, formats: [built.format, built.debug.format] };
}
const again = openStore(process.argv[2]);
const stored = again.listSessions().map((i) => i.messageCount);
again.close();
console.log(JSON.stringify({ texts, stored, cause: (withCause.cause as Error).message, named }));
`;

/** compileAndRun writes the snippet into an app of the given module type, compiles it strictly and runs it. */
function compileAndRun(t, type) {
  const app = fs.mkdtempSync(path.join(os.tmpdir(), `sk-161-${type}-`));
  t.after(() => fs.rmSync(app, { recursive: true, force: true }));
  fs.mkdirSync(path.join(app, 'node_modules', '@types'), { recursive: true });
  fs.symlinkSync(ROOT, path.join(app, 'node_modules', 'sessionkeep'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', '@types', 'node'), path.join(app, 'node_modules', '@types', 'node'), 'dir');
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type }));
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out', types: ['node'], skipLibCheck: true },
    include: ['app.ts'],
  }));
  fs.writeFileSync(path.join(app, 'app.ts'), SNIPPET);
  const tsc = spawnSync(process.execPath, [TSC, '-p', app], { cwd: app, encoding: 'utf8' });
  assert.equal(tsc.status, 0, `tsc (${type}):\n${tsc.stdout}${tsc.stderr}`);
  const out = fs.readFileSync(path.join(app, 'out', 'app.js'), 'utf8');
  assert.equal(/\brequire\("sessionkeep"\)/.test(out), type === 'commonjs', `a ${type} build`);
  const run = spawnSync(process.execPath, [path.join(app, 'out', 'app.js'), path.join(app, 's.db')], { cwd: app, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { texts: ['HELLO'], stored: [1], cause: 'inner', named: { interactions: 1, formats: ['openai', 'openai'] } });
}

test('consumer snippets compile under --strict and run, as CommonJS', (t) => compileAndRun(t, 'commonjs'));
test('consumer snippets compile under --strict and run, as ESM', (t) => compileAndRun(t, 'module'));

test('the .d.ts shows no @internal member, and a Store cannot be made with new', () => {
  const store = fs.readFileSync(path.join(ROOT, 'dist', 'store.d.ts'), 'utf8');
  assert.doesNotMatch(store, /@internal|static open\(/);
  assert.match(store, /private constructor\(\);/);
  assert.match(store, /\[disposeSymbol\]\(\): void;/);
});
