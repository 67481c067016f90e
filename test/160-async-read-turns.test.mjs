// An async read keeps up to two parts in flight, so that the JS thread finds the next part
// queued when it is done with one (native/stream.go). Node's thread-safe function runs
// what is queued, and what is queued while it runs, before it returns to the event loop:
// unbounded, a restore would run most of its parts in one turn. The producer holds back
// once a chain of parts has run for 250 µs, so the loop still turns every few parts. Here
// the parts of a 3,000-message read are counted between setImmediate turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tempStore } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const { native } = require('../dist/native.js');

const MESSAGES = 3000;
const TEXT = 1500; // characters of a prompt: about 70 parts of 64 KB in all
// Parts one turn may run: those handed over within the 250 µs budget (a part takes 0.1 to
// 0.3 ms here) and the two in flight when it ran out, with room for a slow machine.
const MAX_PARTS_A_TURN = 12;

/**
 * chainsOf runs read() with the addon's async read `name` wrapped, and returns how many
 * parts ran in each event-loop turn that ran any (a setImmediate callback marks a turn).
 */
async function chainsOf(name, read) {
  const original = native[name];
  const chains = [];
  let current = 0;
  let reading = true;
  const turn = () => {
    if (current > 0) chains.push(current);
    current = 0;
    if (reading) setImmediate(turn);
  };
  setImmediate(turn);
  native[name] = (h, onPart) => original(h, (part) => {
    current++;
    onPart(part);
  });
  try {
    const got = await read();
    return { got, chains };
  } finally {
    reading = false;
    native[name] = original;
  }
}

test('an async read runs a few parts an event-loop turn, not the whole read', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const prompt = (i) => `prompt ${i} `.padEnd(TEXT, 'x');
  for (let i = 0; i < MESSAGES; i++) s.appendUserMessage(prompt(i));
  await s.flush();

  for (const [name, read] of [['envelopesAsync', () => s.envelopesAsync()], ['messagesAsync', () => s.messagesAsync()]]) {
    const { got, chains } = await chainsOf(name, read);
    assert.equal(got.length, MESSAGES, name);
    for (let i = 0; i < MESSAGES; i += 499) assert.equal((got[i].message ?? got[i]).content[0].text, prompt(i), `${name}: message ${i}`);
    const parts = chains.reduce((a, b) => a + b, 0);
    assert.ok(parts >= 60, `${name}: ${parts} parts`);
    assert.ok(Math.max(...chains) <= MAX_PARTS_A_TURN, `${name}: parts a turn ${chains.join(' ')}`);
  }
});
