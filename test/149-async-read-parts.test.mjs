// An async read crosses to JavaScript in parts of about 64 KB, each parsed in an event-loop
// turn of its own, so that no turn parses (and leaves V8 to scavenge) more than a fraction of
// a millisecond's worth of messages: with parts of 256 KB the p99 of the event-loop delay
// during an async restore of 20,000 messages was 15.9 ms where 64 KB gives 9.0 ms
// (bench/README.md, round 4). The parts are counted where the package receives them from the
// addon, and the messages must still come back whole and in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tempStore } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const { native } = require('../dist/native.js');

const MESSAGES = 3000;
const TEXT = 1500; // characters of a prompt: plain ASCII, so its JSON is as long as its text
const PART = 64 << 10;

/** partsOf runs read() with the addon's async read `name` counting the parts it hands over. */
async function partsOf(name, read) {
  const original = native[name];
  const sizes = [];
  native[name] = (h, onPart) => original(h, (part) => {
    sizes.push(part.length);
    onPart(part);
  });
  try {
    return { got: await read(), sizes };
  } finally {
    native[name] = original;
  }
}

test('an async read hands its messages over in parts of about 64 KB', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  const prompt = (i) => `prompt ${i} `.padEnd(TEXT, 'x');
  for (let i = 0; i < MESSAGES; i++) s.appendUserMessage(prompt(i));
  await s.flush();

  for (const name of ['envelopesAsync', 'messagesAsync']) {
    const { got, sizes } = await partsOf(name, () => s[name]());
    const total = sizes.reduce((a, b) => a + b, 0);
    // A part is closed once it passes 64 KB, so it holds at most one message more.
    const largest = Math.max(...sizes);
    assert.ok(largest <= PART + 2 * TEXT, `${name}: a part of ${largest} characters`);
    assert.ok(sizes.length >= Math.floor(total / (PART + 2 * TEXT)), `${name}: ${sizes.length} parts for ${total} characters`);
    assert.ok(sizes.length > 4, `${name}: ${sizes.length} parts: the session must need several`);
    const texts = got.map((m) => (m.message ?? m).content[0].text);
    assert.deepEqual(texts, Array.from({ length: MESSAGES }, (_, i) => prompt(i)), `${name}: every message whole and in order`);
  }
});
