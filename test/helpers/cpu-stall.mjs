// cpu-stall.mjs: how long, between two moments, this machine had a task ready to run and no
// core to run it on, from Linux's pressure stall information (/proc/pressure/cpu).

// `node --test test/` runs every script under test/ as a test file; this one only exports.
import fs from 'node:fs';

/**
 * cpuStallTotalMs returns the machine's cumulative time (ms) during which some runnable task
 * waited for a CPU, the "some" line of /proc/pressure/cpu, or undefined where the kernel
 * does not report it.
 */
export function cpuStallTotalMs() {
  try {
    const m = /^some .*total=(\d+)/m.exec(fs.readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * StallSampler samples cpuStallTotalMs every intervalMs while it runs, so that totalAt can
 * tell how long tasks waited for a CPU since a wall-clock time. A timing bound such as
 * "recorded 50 ms before a kill means committed" holds for a process that gets CPU time; on
 * an oversubscribed machine the wait for a core is added to it, measured rather than guessed.
 */
export class StallSampler {
  constructor(intervalMs = 10) {
    this.samples = [];
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** sample records the stall total now. */
  sample() {
    const total = cpuStallTotalMs();
    if (total !== undefined) this.samples.push({ t: Date.now(), total });
  }

  /** stop ends the sampling. */
  stop() {
    clearInterval(this.timer);
  }

  /**
   * totalAt returns the stall total of the last sample taken at or before the wall-clock time
   * t (the first sample's when none was): subtracted from a total read later, it gives at
   * least the stall since t.
   */
  totalAt(t) {
    return (this.samples.findLast((s) => s.t <= t) ?? this.samples[0])?.total;
  }
}
