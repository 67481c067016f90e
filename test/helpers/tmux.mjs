// A real terminal for the tests: a tmux server of our own (a private socket, no user
// configuration) with one window running a plain shell, driven by send-keys and read back
// with capture-pane.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let servers = 0;

/** The shell's prompt: a line that is only this (trailing space trimmed) means the shell waits. */
export const PROMPT = '$';

/** tmuxVersion is the installed tmux's version line, or null when tmux is missing. */
export function tmuxVersion() {
  try {
    return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/**
 * withoutCI drops the variables that tell programs they run in CI (CI, CONTINUOUS_INTEGRATION,
 * CI_*): the terminal is a person's, and Ink draws no interactive frames under CI.
 */
function withoutCI(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'CI' && k !== 'CONTINUOUS_INTEGRATION' && !k.startsWith('CI_')));
}

export class Terminal {
  /**
   * Starts a `width`×`height` terminal whose shell runs in `cwd` with `env` (and nothing of
   * the user's shell set-up). After the test `t` the server is killed and its socket folder
   * (a temp dir of its own, not /tmp/tmux-<uid>) removed.
   */
  constructor(t, { cwd, env, width = 120, height = 40 }) {
    this.socket = `sessionkeep-test-${process.pid}-${++servers}`;
    this.socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessionkeep-tmux-'));
    this.env = { ...withoutCI(env), HISTFILE: '/dev/null', TMUX_TMPDIR: this.socketDir };
    // The prompt is set on bash's command line: tmux hands the shell its own environment.
    this.#tmux(['-f', '/dev/null', 'new-session', '-d', '-x', String(width), '-y', String(height), '-s', 'main', '-c', cwd,
      `env PS1='${PROMPT} ' bash --norc --noprofile`]);
    t.after(() => this.close());
  }

  #tmux(args) {
    // -u: UTF-8 whatever the locale says; the screens under test draw with ● ⎿ █ │.
    return execFileSync('tmux', ['-u', '-L', this.socket, ...args], { encoding: 'utf8', env: this.env });
  }

  /** type sends text literally, as typed keys. */
  type(text) {
    this.#tmux(['send-keys', '-t', 'main', '-l', text]);
  }

  /** press sends named keys: 'Enter', 'C-c', 'Down', … */
  press(...keys) {
    this.#tmux(['send-keys', '-t', 'main', ...keys]);
  }

  /** run types a shell command line and presses Enter. */
  run(commandLine) {
    this.type(commandLine);
    this.press('Enter');
  }

  /** screen is what the terminal shows now, trailing blank lines dropped. */
  screen() {
    return this.#tmux(['capture-pane', '-p', '-t', 'main']).replace(/\s+$/, '');
  }

  /** atShell is whether the shell is waiting for a command (its prompt is the last line). */
  atShell() {
    return this.screen().split('\n').at(-1) === PROMPT;
  }

  /** shellReady waits until the shell waits for a command. */
  shellReady() {
    return this.waitFor(() => this.atShell(), { what: 'the shell prompt' });
  }

  /** clear waits for the shell, then empties the screen and the scrollback, so later waits see only new output. */
  async clear() {
    await this.shellReady();
    this.run('clear');
    await this.waitFor((screen) => screen === PROMPT, { what: 'a cleared screen' });
    this.#tmux(['clear-history', '-t', 'main']);
  }

  /**
   * waitFor polls the screen until `check(screen)` is truthy and returns the screen; after
   * `timeoutMs` it fails, showing the screen.
   */
  async waitFor(check, { timeoutMs = 20000, what = String(check) } = {}) {
    const test = check instanceof RegExp ? (s) => check.test(s) : check;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close() {
    try {
      this.#tmux(['kill-server']);
    } catch {
      // Already gone.
    }
    fs.rmSync(this.socketDir, { recursive: true, force: true });
  }
}
