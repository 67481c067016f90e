// The Promise forms: messagesAsync, envelopesAsync, session.flush, store.flush.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, dumpInChild } from './helpers/common.mjs';
import { recordSeed000, SEED000_MESSAGES, recordEveryBlock, everyBlockMessages } from './helpers/fixtures.mjs';

test('messagesAsync() and envelopesAsync() equal messages() and envelopes()', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  recordEveryBlock(s);
  s.ingest({ type: 'text', text: 'still streaming' }); // a block in progress is included too
  const [messages, envelopes] = await Promise.all([s.messagesAsync(), s.envelopesAsync()]);
  assert.deepEqual(messages, s.messages());
  assert.deepEqual(envelopes, s.envelopes());
  assert.deepEqual(messages.slice(0, 5), everyBlockMessages());
  assert.deepEqual(messages[5], { role: 'assistant', content: [{ type: 'text', text: 'still streaming' }] });
  assert.equal(envelopes[5].status, 'streaming');
});

test('async reads run while the JS thread keeps ingesting', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const pending = [];
  for (let i = 0; i < 20; i++) {
    pending.push(s.messagesAsync());
    s.appendUserMessage(`follow-up ${i}`);
  }
  const results = await Promise.all(pending);
  results.forEach((messages, i) => {
    assert.ok(messages.length >= 4 + i, `read ${i} saw what was recorded before it`);
    assert.deepEqual(messages.slice(0, 4), SEED000_MESSAGES);
  });
  assert.equal((await s.messagesAsync()).length, 24);
});

test('session.flush() and store.flush() resolve to undefined, and the data is then on disk', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const p = s.flush();
  assert.ok(p instanceof Promise);
  assert.equal(await p, undefined);
  s.ingest({ type: 'text', text: 'partial, ' }); // a block still streaming is flushed as far as it came
  const q = store.flush();
  assert.ok(q instanceof Promise);
  assert.equal(await q, undefined);
  await s.flush();
  const there = await dumpInChild(db, s.id);
  assert.deepEqual(there.messages.slice(0, 4), SEED000_MESSAGES);
  assert.deepEqual(there.messages[4], { role: 'assistant', content: [{ type: 'text', text: 'partial, ' }] });
  assert.equal(there.envelopes[4].status, 'streaming', 'the writing process is alive, so it is not interrupted');
});
