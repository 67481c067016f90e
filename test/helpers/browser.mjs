// The viewer's test plumbing: a store filled from the real fixtures (and the sessions the
// fixtures lack: a branch, file contents), the real `sessionkeep serve` in a child process,
// raw HTTP requests to it, and Debian's chromium driven by puppeteer-core.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { openStore, storeLocation } from './common.mjs';
import { CLAUDE_CODE, CODEX } from './transcripts.mjs';

const require = createRequire(import.meta.url);
const CLI = require.resolve('../../dist/cli/main.js');

/** Debian's chromium; make setup installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/** The fixture sessions the viewer tests open by id prefix. */
export const FIXTURE = {
  /** moredip images-in-user-messages.jsonl: two user messages with images. */
  images: '47bf5f5c',
  /** moredip 0ccf1a04…: five subagents (Task calls) with their sidechains. */
  subagents: '0ccf1a04',
};

/**
 * fillViewerStore fills the store at `db`: every real Claude Code and Codex transcript
 * imported, one session with two branches (a prompt answered, rewound, answered again) and
 * one with a file snapshot of a text and a binary file. Returns the ids and records made.
 */
export async function fillViewerStore(db, dir) {
  const store = openStore(db);
  try {
    await store.import(CLAUDE_CODE, { format: 'claude-code' });
    await store.import(CODEX);

    const branched = store.createSession({ projectPath: '/work/haiku', title: 'Haiku with two branches', model: 'claude-sonnet-4-5', contextWindow: 100_000 });
    const prompt = branched.appendUserMessage('Write a haiku about the sea');
    answer(branched, 'Autumn moon rises over the quiet harbour', 120);
    const firstAnswer = (await branched.lastEnvelope()).uuid;
    await branched.rewind(prompt.uuid);
    answer(branched, 'Spring rain falls softly on the grey waves', 140);
    const secondAnswer = (await branched.lastEnvelope()).uuid;
    await branched.flush();

    const files = path.join(dir, 'project');
    fs.mkdirSync(files, { recursive: true });
    fs.writeFileSync(path.join(files, 'notes.txt'), 'port 8080\nhost 127.0.0.1\n');
    fs.writeFileSync(path.join(files, 'logo.bin'), Buffer.from([0, 255, 1, 254, 2, 253, 0xc3, 0x28]));
    const snapped = store.createSession({ projectPath: files, title: 'Files at a message' });
    snapped.appendUserMessage('Read the notes');
    answer(snapped, 'The notes say port 8080.', 60);
    const snapshot = await snapped.snapshotFiles(['notes.txt', 'logo.bin', 'gone.txt']);
    await snapped.flush();

    const archived = store.createSession({ projectPath: '/work/archived', title: 'An archived session' });
    archived.appendUserMessage('Nothing to see');
    await archived.flush();
    store.archiveSession(archived.id);
    return { branched: branched.id, prompt: prompt.uuid, firstAnswer, secondAnswer, snapped: snapped.id, snapshot, files, archived: archived.id };
  } finally {
    store.close();
  }
}

function answer(session, text, inputTokens) {
  session.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  session.ingest({ type: 'text', text });
  session.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: inputTokens, output_tokens: 12, cache_read_input_tokens: 1000 } });
}

/**
 * startServe runs `sessionkeep serve --db <db> --no-open` (the checkout's command, or the
 * `cli` given) and resolves once it has printed its URL, with the URL's parts and stop(),
 * which sends SIGTERM and resolves with how the process ended.
 */
export function startServe(db, args = [], cli = CLI) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve', '--db', storeLocation(db), '--no-open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const ended = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal, out, err })));
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /^sessionkeep serve: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))\n/.exec(out);
      if (!m) return;
      clearTimeout(guard);
      resolve({
        url: m[1], port: Number(m[2]), token: m[3], base: `http://127.0.0.1:${m[2]}`, output: () => out,
        stop: () => {
          child.kill('SIGTERM');
          return ended;
        },
      });
    });
    child.on('error', reject);
    ended.then(({ code, signal }) => reject(new Error(`serve ended before printing its URL (${code ?? signal}): ${err}${out}`)));
  });
}

/**
 * request sends one raw HTTP request (any Host header, any method) and resolves with the
 * status, headers, body and, when it is JSON, the parsed body.
 */
export function request(port, urlPath, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        let json;
        if (/json/.test(res.headers['content-type'] ?? '')) json = JSON.parse(body.toString('utf8'));
        resolve({ status: res.statusCode, headers: res.headers, body, json });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** api GETs an API path with the token and resolves with the JSON; any status but 200 throws. */
export async function api(server, urlPath) {
  const r = await request(server.port, urlPath, { headers: { Authorization: `Bearer ${server.token}` } });
  if (r.status !== 200) throw new Error(`GET ${urlPath}: ${r.status} ${r.body.toString('utf8')}`);
  return r.json;
}

/** launchBrowser starts Debian's chromium headless through puppeteer-core; root needs --no-sandbox. */
export async function launchBrowser() {
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,900'],
    defaultViewport: { width: 1280, height: 900 },
  });
}
