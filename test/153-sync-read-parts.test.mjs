// A synchronous read (tail, envelopes, messages, the listing) crosses to JavaScript in
// strings V8 makes in its young generation, each under 127 KB: a string over V8's 128 KB
// large-object size gets fresh pages of its own, which right after a GC took 0.15 ms for a
// 197 KB tail and 0.25 ms for W4's 318 KB listing, against 0.03 and 0.07 ms in parts
// (bench/README.md, round 5). The parts are counted where the package receives them from
// the addon; what the reads return must be whole, in order and the same as the async reads.
// A listing crosses in one format, sync or async: the same parts, one decoder (issue 34).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { tempStore } from './helpers/common.mjs';

const require = createRequire(import.meta.url);
const { native } = require('../dist/native.js');

const MAX = 127 << 10;

/** partsOf runs read() with the addon's sync read `name` noting the parts it returns. */
function partsOf(name, read) {
  const original = native[name];
  let parts;
  native[name] = (...args) => (parts = original(...args));
  try {
    return { got: read(), parts };
  } finally {
    native[name] = original;
  }
}

/** asyncPartsOf is partsOf for an async read: what the addon's Promise resolves to. */
async function asyncPartsOf(name, read) {
  const original = native[name];
  let parts;
  native[name] = async (...args) => (parts = await original(...args));
  try {
    return { got: await read(), parts };
  } finally {
    native[name] = original;
  }
}

test('a synchronous read of messages crosses in parts under 127 KB but for a message larger alone', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  // tool-result-like prompts of 1 to 60 KB, non-ASCII included, and one of 300 KB
  const prompt = (i) => `prompt ${i} → ✓ `.padEnd(i === 17 ? 300_000 : 1000 + ((i * 7919) % 60_000), 'x');
  const N = 60;
  for (let i = 0; i < N; i++) s.appendUserMessage(prompt(i));
  await s.flush();

  for (const [name, read, async] of [
    ['tail', () => s.tail(N), () => s.tailAsync(N)],
    ['envelopes', () => s.envelopes(), () => s.envelopesAsync()],
    ['messages', () => s.messages(), () => s.messagesAsync()],
  ]) {
    const { got, parts } = partsOf(name, read);
    assert.ok(parts.length > 10, `${name}: ${parts.length} parts: the session must need several`);
    for (const [i, part] of parts.entries()) {
      const items = JSON.parse(part).length;
      assert.ok(part.length <= MAX || items === 1, `${name}: part ${i} of ${part.length} characters holds ${items} messages`);
    }
    const texts = got.map((m) => (m.message ?? m).content[0].text ?? (m.message ?? m).content);
    assert.deepEqual(texts, Array.from({ length: N }, (_, i) => prompt(i)), `${name}: every message whole and in order`);
    assert.deepEqual(got, await async(), `${name}: the same as the async read`);
  }
  assert.deepEqual(s.tail(3), s.tail(N).slice(-3));
});

test('a listing crosses in parts under 127 KB, every session once and in order', async (t) => {
  const { store } = tempStore(t);
  // titles that hold what the parts are cut at: `,{"` and `},{` with quotes and letters
  const title = (i) => `task ${i}: fix },{"id":"x"} and ,{"a , {"b → ✓ "quoted" \\ `.padEnd(400 + (i % 5) * 300, 'y');
  for (let i = 0; i < 700; i++) store.createSession({ projectPath: `/p${i % 3}`, title: title(i) });
  for (const fields of [undefined, ['id', 'title', 'messageCount', 'updatedAt'], ['title']]) {
    const options = fields ? { fields } : {};
    const { got, parts } = partsOf('listSessions', () => store.listSessions(options));
    assert.ok(parts.length >= 3, `${parts.length} parts for fields ${fields}`);
    for (const [i, part] of parts.entries()) assert.ok(part.length <= MAX, `part ${i} of ${part.length} characters`);
    assert.equal(got.length, 700);
    const async = await asyncPartsOf('listSessionsAsync', () => store.listSessionsAsync(options));
    assert.deepEqual(async.parts, parts, 'the async listing crosses in the same parts');
    assert.deepEqual(async.got, got, 'the same as the async listing');
    assert.deepEqual(new Set(got.map((i) => i.title)), new Set(Array.from({ length: 700 }, (_, i) => title(i))));
  }
  const few = partsOf('listSessions', () => store.listSessions({ limit: 5 }));
  assert.equal(few.parts.length, 1, 'a short listing is one part');
});
