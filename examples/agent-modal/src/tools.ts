import fs from 'node:fs';
import path from 'node:path';
import type { ToolExecution } from 'sessionkeep';

/** The tools the agent offers the model, as the Anthropic Messages API declares them. */
export const TOOL_DEFINITIONS = [
  {
    name: 'list_dir',
    description: 'List the entries of a folder of the project. Folders end with "/".',
    input_schema: {
      type: 'object' as const,
      properties: { path: { type: 'string', description: 'Folder, relative to the project root. Default "."' } },
    },
  },
  {
    name: 'read_file',
    description: 'Read a text file of the project.',
    input_schema: {
      type: 'object' as const,
      properties: { path: { type: 'string', description: 'File, relative to the project root.' } },
      required: ['path'],
    },
  },
  {
    name: 'grep',
    description: 'Search the project\'s text files for a regular expression; prints file:line: text.',
    input_schema: {
      type: 'object' as const,
      properties: {
        pattern: { type: 'string', description: 'A JavaScript regular expression.' },
        path: { type: 'string', description: 'Folder or file to search, relative to the project root. Default "."' },
      },
      required: ['pattern'],
    },
  },
];

export type ToolName = 'list_dir' | 'read_file' | 'grep';

export interface ToolOutcome {
  /** What the model is given. */
  content: string;
  isError: boolean;
  /** The execution record sessionkeep keeps beside the result. */
  raw: ToolExecution;
}

const MAX_READ_BYTES = 100_000;
const MAX_GREP_MATCHES = 100;
const MAX_LIST_ENTRIES = 200;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/**
 * runTool runs one tool call inside `root`, the project folder: paths that lead out of it
 * (through "..", an absolute path or a symbolic link) are refused. Failures are results
 * with isError, as the model should see them; runTool itself does not throw.
 */
export async function runTool(root: string, name: string, input: unknown): Promise<ToolOutcome> {
  const started = Date.now();
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  try {
    const stdout = await dispatch(root, name, args);
    return { content: stdout, isError: false, raw: record(stdout, '', 0, started) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { content: message, isError: true, raw: record('', message, 1, started) };
  }
}

async function dispatch(root: string, name: string, args: Record<string, unknown>): Promise<string> {
  switch (name) {
    case 'list_dir': return listDir(root, optionalString(args, 'path') ?? '.');
    case 'read_file': return readFile(root, requiredString(args, 'path'));
    case 'grep': return grep(root, requiredString(args, 'pattern'), optionalString(args, 'path') ?? '.');
    default: throw new Error(`unknown tool ${JSON.stringify(name)}`);
  }
}

function listDir(root: string, rel: string): string {
  const dir = inside(root, rel);
  const entries = fs.readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  if (entries.length === 0) return '(empty folder)';
  const shown = entries.slice(0, MAX_LIST_ENTRIES);
  const more = entries.length - shown.length;
  return shown.join('\n') + (more > 0 ? `\n… and ${more} more` : '');
}

function readFile(root: string, rel: string): string {
  const file = inside(root, rel);
  const stat = fs.statSync(file);
  if (stat.isDirectory()) throw new Error(`${rel} is a folder; use list_dir`);
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(stat.size, MAX_READ_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, n);
    if (bytes.includes(0)) throw new Error(`${rel} is not a text file`);
    const text = bytes.toString('utf8');
    return stat.size > MAX_READ_BYTES ? `${text}\n… (${stat.size - MAX_READ_BYTES} more bytes not read)` : text;
  } finally {
    fs.closeSync(fd);
  }
}

function grep(root: string, pattern: string, rel: string): string {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    throw new Error(`not a valid regular expression: ${pattern}`);
  }
  const matches: string[] = [];
  for (const file of walk(inside(root, rel))) {
    const bytes = fs.readFileSync(file);
    if (bytes.length > MAX_READ_BYTES * 10 || bytes.includes(0)) continue;
    const lines = bytes.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      matches.push(`${path.relative(root, file)}:${i + 1}: ${lines[i].trim().slice(0, 200)}`);
      if (matches.length === MAX_GREP_MATCHES) return matches.join('\n') + `\n… stopped at ${MAX_GREP_MATCHES} matches`;
    }
  }
  return matches.length ? matches.join('\n') : 'no matches';
}

/** walk yields the files under `start` (or `start` itself), in name order, skipping .git and node_modules. */
function* walk(start: string): Generator<string> {
  const stat = fs.statSync(start);
  if (!stat.isDirectory()) {
    yield start;
    return;
  }
  for (const e of fs.readdirSync(start, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(start, e.name);
    if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** inside resolves `rel` against root and refuses anything that ends up outside it. */
function inside(root: string, rel: string): string {
  const realRoot = fs.realpathSync(root);
  const target = path.resolve(realRoot, rel);
  let real: string;
  try {
    real = fs.realpathSync(target);
  } catch {
    throw new Error(`${rel}: no such file or folder`);
  }
  const fromRoot = path.relative(realRoot, real);
  if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) throw new Error(`${rel} is outside the project folder`);
  return real;
}

function requiredString(args: Record<string, unknown>, key: string): string {
  const v = args[key];
  if (typeof v !== 'string' || v === '') throw new Error(`missing "${key}"`);
  return v;
}

function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function record(stdout: string, stderr: string, exitCode: number, started: number): ToolExecution {
  return { stdout, stderr, exitCode, interrupted: false, isImage: false, durationMs: Date.now() - started };
}
