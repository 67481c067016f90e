// The time to live of a cache write, through an adapter: a real Anthropic stream (Vercel AI's
// capture, whose usage reports no cache write) made to report one split between the 5-minute
// and the 1-hour cache, parsed by the real @anthropic-ai/sdk and recorded with
// fromAnthropicStream. The message keeps the split as the API reported it, and the session's
// usage prices the 1-hour part at the 1-hour rate, before and after the store is reopened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { openStore, sk, tempStore } from './helpers/common.mjs';
import { jsonLinesToSSE, readFixture, replayFetch } from './helpers/sse.mjs';

const CAPTURE = 'vercel__ai__packages__anthropic__src____fixtures____anthropic-clear-thinking.1.chunks.txt';
const SPLIT = { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 };

/** withCacheWrite is the capture with its usage reporting a cache write of SPLIT. */
function withCacheWrite(text) {
  const total = SPLIT.ephemeral_5m_input_tokens + SPLIT.ephemeral_1h_input_tokens;
  const lines = text.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const ev = JSON.parse(line);
    if (ev.type === 'message_start') ev.message.usage = { ...ev.message.usage, cache_creation_input_tokens: total, cache_creation: SPLIT };
    if (ev.type === 'message_delta') ev.usage = { ...ev.usage, cache_creation_input_tokens: total };
    return JSON.stringify(ev);
  });
  assert.ok(lines.some((l) => l.includes('"cache_creation":{"ephemeral_5m_input_tokens":1000')), 'the capture reports its usage at message_start');
  return jsonLinesToSSE(lines.join('\n'))[0];
}

// Rates of the caller's own: the built-in ones are pinned in session/catalog.
const PRICES = { 'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 } };

test('a cache write kept for an hour is kept with the message and priced at the 1-hour rate', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession({ model: 'claude-sonnet-4-5' });
  s.appendUserMessage('Go');
  const { fetch } = replayFetch([withCacheWrite(readFixture(CAPTURE))], { 'request-id': 'req_ttl_01' });
  const client = new Anthropic({ apiKey: 'test-key', fetch, maxRetries: 0 });
  await sk.fromAnthropicStream(s, client.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Go' }] }));
  const id = s.id;

  const check = async (st, session, when) => {
    const [, answer] = session.messages();
    assert.deepEqual(answer.usage.cache_creation, SPLIT, `${when}: the message keeps the split`);
    const { usage, cost } = await session.detailsAsync({ prices: PRICES });
    assert.equal(usage.length, 1);
    const u = usage[0];
    assert.equal(u.cacheCreationInputTokens, 3000, when);
    assert.equal(u.cacheCreation1hInputTokens, 2000, when);
    const want = (u.inputTokens * 3 + u.outputTokens * 15 + 1000 * 3.75 + 2000 * 6) / 1e6;
    assert.ok(Math.abs(cost - want) < 1e-12, `${when}: $${cost}, want $${want}`);
    const atFiveMinutes = (u.inputTokens * 3 + u.outputTokens * 15 + 3000 * 3.75) / 1e6;
    assert.ok(cost > atFiveMinutes, `${when}: more than every write at the 5-minute rate`);
    const stats = await st.statsAsync({ prices: PRICES });
    assert.equal(stats.totals.cacheCreation1hInputTokens, 2000, `${when}: stats`);
    assert.ok(Math.abs(stats.totals.cost - want) < 1e-12, `${when}: stats $${stats.totals.cost}`);
  };
  await check(store, s, 'as recorded');
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  await check(again, again.openSession(id), 'after reopening');
});
