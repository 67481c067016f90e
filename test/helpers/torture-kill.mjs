// The kill torture: torture-child.mjs streams the torture script, is SIGKILLed at a random
// point, and the store it leaves is checked in this process against what the child said
// it had recorded, and against the same conversation streamed to its end (the golden one).

// `node --test test/` runs every script under test/ as a test file; this one only exports.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, helper, ON_POSTGRES } from './common.mjs';
import { script } from './torture-script.mjs';
import { verifyProblems } from './verify.mjs';
import { cpuStallTotalMs, StallSampler } from './cpu-stall.mjs';

/**
 * GRACE_MS: what was recorded this long before the kill must be in the store: the 20 ms
 * checkpoint of streaming text, the 5 ms delta joining and the commit, with room to spare,
 * on a machine that gives the process CPU time. graceFor widens it on one that does not.
 */
export const GRACE_MS = 50;

/**
 * graceFor returns the grace for this machine now. Where the kernel reports CPU pressure,
 * GRACE_MS: checkKill then adds the time tasks waited for a core before each kill, measured.
 * Elsewhere GRACE_MS times how many runnable threads each core has over one (the one-minute
 * load average), since a process that waits for a core waits to commit too.
 */
export function graceFor(load = os.loadavg()[0], cores = os.cpus().length) {
  if (cpuStallTotalMs() !== undefined) return GRACE_MS;
  return Math.round(GRACE_MS * Math.max(1, load / cores));
}

/**
 * runToKill runs torture-child.mjs on db and SIGKILLs it killAfterMs after its first line
 * (or once it has finished, when that comes first and killAfterMs is Infinity). It resolves
 * once the process is gone with its session id, its reports ({i, t}), the kill time and the
 * machine's CPU stall total then (cpu-stall.mjs).
 */
export function runToKill(db, seed, turns, killAfterMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [helper('torture-child.mjs'), db, String(seed), String(turns)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let err = '';
    let id;
    let finished = false;
    let killedAt;
    let stallAtKill;
    const reports = [];
    const kill = () => {
      if (killedAt !== undefined) return;
      killedAt = Date.now();
      stallAtKill = cpuStallTotalMs();
      child.kill('SIGKILL');
    };
    const guard = setTimeout(kill, 30000);
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop();
      for (const line of lines) {
        const o = JSON.parse(line);
        if (o.id) {
          id = o.id;
          if (Number.isFinite(killAfterMs)) setTimeout(kill, killAfterMs);
        } else if (o.finished) {
          finished = true;
          // Past the commit window and the checkpoint interval: everything is committed.
          if (!Number.isFinite(killAfterMs)) setTimeout(kill, 200);
        } else {
          reports.push(o);
        }
      }
    });
    child.on('error', reject);
    // 'close', not 'exit': every line the child wrote before it died is read by then.
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (!id) reject(new Error(`torture-child.mjs ended before it began (${code ?? signal}): ${err}`));
      else if (signal !== 'SIGKILL') reject(new Error(`torture-child.mjs ended by itself (${code ?? signal}): ${err}`));
      else resolve({ id, reports, killedAt, stallAtKill, finished });
    });
  });
}

/** integrity runs PRAGMA integrity_check with the sqlite3 command-line shell. */
export function integrity(db) {
  return execFileSync('sqlite3', [db, 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim();
}

/**
 * golden streams the whole script into a store of its own and returns its messages, after
 * checking them against the script's text: the reference for the kills.
 */
export async function golden(dir, seed, turns) {
  const db = path.join(dir, 'golden.db');
  const run = await runToKill(db, seed, turns, Infinity);
  const store = openStore(db);
  try {
    const messages = store.openSession(run.id).messages();
    const results = script(seed, turns).filter((s) => s.chunk?.type === 'tool_result');
    const stored = messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
    if (messages.length !== turns * 4 || stored.length !== results.length) {
      throw new Error(`golden run has ${messages.length} messages and ${stored.length} results`);
    }
    results.forEach((r, i) => {
      if (stored[i].content !== r.chunk.content) throw new Error(`golden tool result ${i} differs from the script`);
    });
    return messages;
  } finally {
    store.close();
  }
}

/**
 * checkKill opens db after a kill and returns what is wrong, as sentences (none when all is
 * well): the file's integrity, each message equal to the golden one but the last, which may
 * be partial and then is marked interrupted, no empty message, no tool_result without its
 * tool_use, the session listed, and every step recorded graceMs before the kill present,
 * with the time tasks waited for a CPU since the step added (measured by stalls, a
 * StallSampler, when given). It sets run.lossMs to how long before the kill the oldest step
 * lost was recorded.
 */
export async function checkKill(db, run, steps, gold, graceMs = GRACE_MS, stalls = undefined) {
  const problems = [];
  // The file's own check; a PostgreSQL server keeps its pages itself.
  const check = ON_POSTGRES ? 'ok' : integrity(db);
  if (check !== 'ok') problems.push(`integrity_check: ${check}`);
  const store = openStore(db);
  try {
    // The whole store as well: store.verify() (indexes, bodies, blobs, counts, tree).
    problems.push(...await verifyProblems(store));
    if (!store.listSessions().some((i) => i.id === run.id)) {
      // Killed before its first commit: allowed only when nothing was recorded in time.
      const first = run.reports[0];
      run.lossMs = first ? run.killedAt - first.t : 0;
      if (first && late(run, first, graceMs, stalls)) problems.push('the session is not listed');
      return problems;
    }
    const s = store.openSession(run.id);
    const got = s.messages();
    const env = s.envelopes().filter((e) => e.message);
    checkMessages(got, env, gold, problems);
    checkToolResults(got, problems);
    const lost = lostStep(got, run, steps);
    run.lossMs = lost ? run.killedAt - lost.t : 0;
    if (lost && late(run, lost, graceMs, stalls)) {
      problems.push(`a step recorded ${run.lossMs} ms before the kill is lost, `
        + `tasks waited for a CPU ${stalledSince(run, lost, stalls)} ms of that`);
    }
    s.close();
  } finally {
    store.close();
  }
  return problems;
}

function checkMessages(got, env, gold, problems) {
  got.forEach((m, i) => {
    if (m.content.length === 0) problems.push(`message ${i} is empty`);
    if (JSON.stringify(m) === JSON.stringify(gold[i])) return;
    if (i !== got.length - 1) {
      problems.push(`message ${i} differs from the golden one and is not the last`);
    } else if (env[i]?.status !== 'interrupted') {
      problems.push(`the last message is partial but its status is ${env[i]?.status}`);
    } else if (!isPrefix(m, gold[i])) {
      problems.push(`the last message is not a prefix of the golden one`);
    }
  });
}

// isPrefix: the partial message's blocks are the golden ones, the last as far as it came.
function isPrefix(m, g) {
  if (!g || m.role !== g.role || m.content.length > g.content.length) return false;
  return m.content.every((b, j) => {
    const want = g.content[j];
    if (JSON.stringify(b) === JSON.stringify(want)) return true;
    if (j !== m.content.length - 1 || b.type !== want.type) return false;
    if (b.type === 'text') return want.text.startsWith(b.text);
    if (b.type === 'thinking') return want.thinking.startsWith(b.thinking) && !b.signature;
    if (b.type === 'tool_use') return b.id === want.id;
    return false;
  });
}

function checkToolResults(got, problems) {
  const calls = new Set();
  for (const m of got) {
    for (const b of m.content) {
      if (b.type === 'tool_use') calls.add(b.id);
      if (b.type === 'tool_result' && !calls.has(b.tool_use_id)) problems.push(`tool_result ${b.tool_use_id} has no tool_use before it`);
    }
  }
}

// lostStep returns the report ({i, t}) of the oldest step whose record is not in the
// messages got: undefined when none was lost.
function lostStep(got, run, steps) {
  const kept = run.reports.findLastIndex((r) => present(got, steps[r.i].at));
  return run.reports[kept + 1];
}

// late reports whether a step lost in the kill was recorded long enough before it to count:
// graceMs, plus the time tasks waited for a CPU since, which delays the commit as much.
function late(run, step, graceMs, stalls) {
  return run.killedAt - step.t - stalledSince(run, step, stalls) >= graceMs;
}

// stalledSince returns how long tasks waited for a CPU from a step's report to the kill: 0
// without a sampler or where the kernel does not report it.
function stalledSince(run, step, stalls) {
  const before = stalls?.totalAt(step.t);
  if (before === undefined || run.stallAtKill === undefined) return 0;
  return Math.max(0, Math.round(run.stallAtKill - before));
}

// present reports whether the messages got hold what a step had recorded.
function present(got, { msg, block, len }) {
  // A message begun with no block yet is one the conversation does not show.
  if (block < 0) return got.length >= msg;
  const b = got[msg]?.content[block];
  if (!b) return false;
  const text = b.text ?? b.thinking;
  return len <= 0 || (text !== undefined && text.length >= len);
}

/**
 * tortureKills runs `kills` kills of the script of seed, `parallel` at a time, each in a
 * store of its own under dir, killed up to maxKillMs into the stream. It returns the
 * problems found, how many kills cut the stream off, and the oldest loss (run.lossMs) seen.
 */
export async function tortureKills({ dir, seed, turns, kills, parallel, maxKillMs, graceMs }) {
  const steps = script(seed, turns);
  const gold = await golden(dir, seed, turns);
  const stalls = new StallSampler();
  const found = [];
  let cutOff = 0;
  let worstLossMs = 0;
  let next = 0;
  const one = async (k) => {
    const db = path.join(dir, `kill-${k}.db`);
    const run = await runToKill(db, seed, turns, Math.random() * maxKillMs);
    const problems = await checkKill(db, run, steps, gold, graceMs, stalls);
    if (run.reports.length < steps.length) cutOff++;
    worstLossMs = Math.max(worstLossMs, run.lossMs);
    for (const p of problems) found.push(`kill ${k} after step ${run.reports.at(-1)?.i}: ${p}`);
    for (const f of fs.readdirSync(dir)) if (f.startsWith(`kill-${k}.db`)) fs.rmSync(path.join(dir, f));
  };
  const lane = async () => {
    while (next < kills) await one(next++);
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  stalls.stop();
  return { problems: found, cutOff, worstLossMs };
}
