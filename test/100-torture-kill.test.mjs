// Kill torture: a process streaming a coding agent's turns (thinking, text, streamed tool
// calls, large non-ASCII tool outputs) is SIGKILLed at random points, and each store it
// leaves passes integrity_check and gives back every message that ended before the kill
// byte for byte, at most the last one partial and marked interrupted, no empty message, no
// tool_result without its tool_use, and everything recorded 50 ms before the kill (plus the
// time tasks waited for a CPU since, measured, on an oversubscribed machine: see checkKill).
// TORTURE_KILLS sets how many kills (200 by default; `make torture` runs 1,000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { tempDir } from './helpers/common.mjs';
import { tortureKills, graceFor, GRACE_MS } from './helpers/torture-kill.mjs';

const KILLS = Number(process.env.TORTURE_KILLS ?? 200);

test(`${KILLS} SIGKILLs at random points of a stream lose nothing that ended before them`, { timeout: 60 * 60 * 1000 }, async (t) => {
  const started = Date.now();
  const graceMs = graceFor();
  if (graceMs > GRACE_MS) t.diagnostic(`the machine is oversubscribed (load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores): grace ${graceMs} ms`);
  const { problems, cutOff, worstLossMs } = await tortureKills({
    dir: tempDir(t), seed: 12, turns: 20, kills: KILLS, parallel: 2, maxKillMs: 350, graceMs,
  });
  t.diagnostic(`${KILLS} kills in ${((Date.now() - started) / 1000).toFixed(1)} s, ${cutOff} of them mid-stream, `
    + `oldest loss ${worstLossMs} ms before the kill, ${problems.length} problems`);
  assert.deepEqual(problems, []);
  // The kills must land inside the stream, or they test nothing.
  assert.ok(cutOff >= KILLS * 0.8, `only ${cutOff} of ${KILLS} kills landed mid-stream`);
});
