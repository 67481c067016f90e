// Plumbing for the Ink kit tests: the kit as the package builds it (dist/ink, an ES module),
// React without JSX, and waiting for a frame.
import React from 'react';
import { stripVTControlCharacters } from 'node:util';

export { render } from 'ink-testing-library';
export const kit = await import('../../dist/ink/index.js');
export const h = React.createElement;

/** Keys as a terminal sends them. */
export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  pageDown: '\u001B[6~',
  end: '\u001B[F',
  home: '\u001B[H',
  enter: '\r',
  escape: '\u001B',
};

/** frame is the last frame without colours. */
export function frame(instance) {
  return stripVTControlCharacters(instance.lastFrame() ?? '');
}

/**
 * waitFor polls until `check()` returns a truthy value and returns it; after `timeoutMs` it
 * fails with `describe()`, so a failing test shows what the screen held.
 */
export async function waitFor(check, { timeoutMs = 5000, describe = () => '' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${check}\n${describe()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** waitForFrame waits until the last frame (colours stripped) matches `pattern`, and returns it. */
export function waitForFrame(instance, pattern, options) {
  return waitFor(() => (pattern.test(frame(instance)) ? frame(instance) : null), {
    describe: () => `last frame:\n${frame(instance)}`,
    ...options,
  });
}

/** press writes keys to the app one at a time, as separate reads, letting Ink handle each. */
export async function press(instance, ...keys) {
  for (const key of keys) {
    instance.stdin.write(key);
    await new Promise((r) => setTimeout(r, 20));
  }
}
