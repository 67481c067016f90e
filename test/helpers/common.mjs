// Shared plumbing for the end-to-end tests: the real package from dist/, fresh temp
// directories, and child processes. No mocks: everything here runs the built addon.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { storeLocation } from './store-location.mjs';

const require = createRequire(import.meta.url);

/** The package as users get it: dist/index.js, which loads build/Release/sessionkeep.node. */
export const sk = require('../../dist/index.js');
export const { SessionError } = sk;

export { BACKEND, ON_POSTGRES, storeLocation, storeEnv, sqliteFileOnly, packagingOnly } from './store-location.mjs';

/** openStore opens the store of a file path through the switch; other arguments as sk.openStore. */
export function openStore(file, ...rest) {
  return sk.openStore(storeLocation(file), ...rest);
}


export const HELPERS = path.dirname(fileURLToPath(import.meta.url));
export const helper = (name) => path.join(HELPERS, name);

/** A UUID v7: version nibble 7, RFC 4122 variant. */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** An envelope timestamp: ISO 8601 UTC with milliseconds. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** tempDir makes a fresh directory under the OS temp dir, removed after the test `t`. */
export function tempDir(t, prefix = 'sessionkeep-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * tempStore opens a store on a new database file in a fresh temp dir; after `t` the store
 * is closed (a no-op if the test closed it) and then the directory removed.
 */
export function tempStore(t, name = 'sessions.db') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-test-'));
  const db = path.join(dir, name);
  const store = openStore(db);
  t.after(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { db, dir, store };
}

/**
 * runNode runs `node script ...args` to its end and resolves with its exit code, signal and
 * output. It never rejects on a non-zero exit: callers assert on what they expect.
 */
export function runNode(script, args = [], { env, timeoutMs = 20000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * killAfterFirstLine runs `node script ...args`, waits for the first line it prints (a JSON
 * document saying it has done its work), sends SIGKILL 100 ms later, and resolves once the
 * process is gone (and reaped, so that its pid no longer looks alive) with that document,
 * its exit code and signal. It rejects if the process ends without printing a line.
 */
export function killAfterFirstLine(script, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let line;
    const guard = setTimeout(() => child.kill('SIGKILL'), 15000);
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (line === undefined && out.includes('\n')) {
        line = out.slice(0, out.indexOf('\n'));
        setTimeout(() => child.kill('SIGKILL'), 100);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (line === undefined) reject(new Error(`${path.basename(script)} exited early (${code ?? signal}): ${err}`));
      else resolve({ ...JSON.parse(line), code, signal });
    });
  });
}

/** runNodeJSON runs a helper that prints one JSON document, and returns it parsed. */
export async function runNodeJSON(script, args = [], options) {
  const r = await runNode(script, args, options);
  if (r.code !== 0) {
    throw new Error(`${path.basename(script)} exited with ${r.code ?? r.signal}:\n${r.stderr}`);
  }
  return JSON.parse(r.stdout);
}

/**
 * dumpInChild reopens session `id` of the store at `db` in a separate process and returns
 * what that process read: messages, envelopes, turns, token tracker and the session listing.
 * It goes through a file, since a dump can hold tens of megabytes.
 */
export async function dumpInChild(db, id) {
  const out = path.join(path.dirname(db), `dump-${process.hrtime.bigint()}.json`);
  const r = await runNode(helper('dump.mjs'), [db, id, out]);
  if (r.code !== 0) throw new Error(`dump.mjs exited with ${r.code ?? r.signal}:\n${r.stderr}`);
  const dump = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out);
  return dump;
}

/** snapshot reads everything a session shows, to compare before and after something. */
export function snapshot(session) {
  return {
    messages: session.messages(),
    envelopes: session.envelopes(),
    turns: session.turns(),
    tokenTracker: session.tokenTracker(),
  };
}

/** sessionError matches a SessionError with the given code (and message pattern). */
export function sessionError(code, message) {
  return (err) => {
    if (!(err instanceof SessionError)) throw new Error(`expected a SessionError, got ${err?.name}: ${err?.message}`);
    if (err.name !== 'SessionError') throw new Error(`name is ${err.name}`);
    if (err.code !== code) throw new Error(`expected code ${code}, got ${err.code}: ${err.message}`);
    if (message && !message.test(err.message)) throw new Error(`message ${JSON.stringify(err.message)} does not match ${message}`);
    return true;
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * readTree returns every regular file under dir, relative path ('/'-separated) → content, and
 * {} when dir does not exist. It never descends into a symbolic link, on any Node: from Node 22
 * on, readdirSync({ recursive: true, withFileTypes: true }) follows linked folders, which
 * Node 20 does not, so a tree holding a link would read differently per version.
 */
export function readTree(dir, prefix = '') {
  const out = {};
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, readTree(full, `${prefix}${entry.name}/`));
    else if (entry.isFile()) out[prefix + entry.name] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

/** writeTree creates files (relative path → content) under dir: readTree's other half. */
export function writeTree(dir, files) {
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), content);
  }
}
