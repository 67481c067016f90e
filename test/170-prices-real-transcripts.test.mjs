// Built-in prices on the real Claude Code transcripts: with no prices given, every session
// of a current Anthropic model has a cost in dollars, computed from its token totals at the
// list prices; and those totals are the sum over unique API messages (message.id), not over
// lines, which would count a response once per content block (ccusage's 2-6.5x overcount).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode, storeLocation, tempStore } from './helpers/common.mjs';
import { CLAUDE_CODE, jsonlFiles, readRecords } from './helpers/transcripts.mjs';

/**
 * LIST are the list prices per million tokens these transcripts' models have
 * (platform.claude.com/docs/en/about-claude/pricing): a cache write kept 5 minutes costs
 * 1.25x input, one kept an hour 2x.
 */
const LIST = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25, cacheWrite1h: 2 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 },
};

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');

const listPrice = (model) => LIST[Object.keys(LIST).filter((k) => model.startsWith(k)).sort((a, b) => b.length - a.length)[0]];

/** atListPrice is what tokens cost at p, a cache write's 1-hour part at the 1-hour rate. */
const atListPrice = (p, t) => (t.inputTokens * p.input + t.outputTokens * p.output + t.cacheReadInputTokens * p.cacheRead
  + (t.cacheCreationInputTokens - t.cacheCreation1hInputTokens) * p.cacheWrite + t.cacheCreation1hInputTokens * p.cacheWrite1h) / 1e6;

/**
 * sumsBySession adds the usage of each assistant API message once, by session (the last line
 * of each message.id wins), and names the sessions whose transcript writes a message again
 * later, under new uuids (Claude Code re-writes the conversation so after some events).
 */
function sumsBySession() {
  const byMessage = new Map();
  const rewritten = new Set();
  let lines = 0;
  for (const file of jsonlFiles(CLAUDE_CODE)) {
    let previous;
    for (const { value: r } of readRecords(file).records) {
      const m = r.message;
      if (r.type === 'user') previous = undefined;
      if (r.type !== 'assistant' || !m?.usage || !m.id) continue;
      lines++;
      const key = `${r.sessionId} ${m.id}`;
      if (byMessage.has(key) && previous !== key) rewritten.add(r.sessionId);
      previous = key;
      byMessage.set(key, { session: r.sessionId, model: m.model, usage: m.usage });
    }
  }
  const sessions = new Map();
  for (const { session, model, usage } of byMessage.values()) {
    const s = sessions.get(session) ?? { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0, cost: 0 };
    const request = {
      inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0,
      cacheReadInputTokens: usage.cache_read_input_tokens ?? 0, cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
      cacheCreation1hInputTokens: usage.cache_creation?.ephemeral_1h_input_tokens ?? 0,
    };
    for (const k of Object.keys(request)) s[k] += request[k];
    const p = listPrice(model);
    if (p) s.cost += atListPrice(p, request);
    sessions.set(session, s);
  }
  return { sessions, lines, messages: byMessage.size, rewritten };
}

test('real transcripts: tokens are summed once per API message, and priced in dollars with no prices given', async (t) => {
  const { store } = tempStore(t);
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  const { sessions, lines, messages, rewritten } = sumsBySession();
  assert.ok(lines > messages, `the fixtures split responses over lines (${lines} lines, ${messages} messages), so the property is tested`);
  let priced = 0;
  let hourWrites = 0;
  for (const [id, want] of sessions) {
    const info = await store.openSession(id).detailsAsync();
    const { contextTokens, ...tokens } = info.tokens;
    // Also for a transcript that writes a whole response again under new uuids.
    const { cacheCreation1hInputTokens, cost, ...totals } = want;
    assert.deepEqual(tokens, totals, `${id}: the session's tokens are the sum over its unique API messages`);
    if (info.usage.length === 0) continue;
    assert.equal(info.unpricedModels, undefined, `${id}: ${info.unpricedModels}`);
    assert.equal(info.usage.reduce((n, u) => n + u.cacheCreation1hInputTokens, 0), cacheCreation1hInputTokens,
      `${id}: the cache writes kept an hour, as the transcript's cache_creation splits them`);
    const atList = info.usage.reduce((n, u) => n + atListPrice(listPrice(u.model), u), 0);
    assert.ok(atList > 0 && Math.abs(info.cost - atList) < 1e-9, `${id}: $${info.cost}, want $${atList} at list prices`);
    assert.ok(Math.abs(info.cost - cost) < 1e-9, `${id}: $${info.cost}, want $${cost} from the transcript's own usage`);
    if (cacheCreation1hInputTokens > 0) hourWrites++;
    priced++;
  }
  assert.ok(priced >= 10, `${priced} sessions priced`);
  assert.ok(hourWrites >= 1, 'a fixture writes to the cache for an hour, so its rate is tested');
  assert.ok(rewritten.size >= 1, 'a fixture writes responses again under new uuids, so counting them once is tested');
});

test('stats over real transcripts: dollars by day and model with no prices given, summing the sessions', async (t) => {
  const { store } = tempStore(t);
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  const st = await store.statsAsync({});
  let want = 0;
  for (const info of await store.listSessionsAsync({ includeArchived: true })) want += (await store.openSession(info.id).detailsAsync()).cost;
  assert.ok(want > 0);
  assert.ok(Math.abs(st.totals.cost - want) < 1e-9, `$${st.totals.cost}, want $${want}`);
  assert.ok(st.days.every((d) => typeof d.cost === 'number'), 'every row priced');
});

test('sessionkeep info, stats and stats --blocks print dollars for real transcripts with no prices file', async (t) => {
  const { store, db } = tempStore(t);
  await store.import(CLAUDE_CODE, { format: 'claude-code' });
  await store.flush();
  const env = { ...process.env };
  delete env.SESSIONKEEP_PRICES;
  const cli = (...args) => runNode(BIN, [...args, '--db', storeLocation(db)], { env });
  const [first] = await store.listSessionsAsync({ includeArchived: true });
  const info = await cli('info', first.id);
  assert.equal(info.code, 0, info.stderr);
  assert.match(info.stdout, /Total Cost: \$\d+\.\d+/);
  const hour = await cli('info', '258c7280-ae70-4798-800f-63464d01a85d');
  assert.match(hour.stdout, /claude-sonnet-4-5-20250929: .* 42,176 cache write \(42,176 for 1 h\)/, 'the cache writes kept an hour are named');
  const stats = await cli('stats');
  assert.match(stats.stdout, /^.*COST/m);
  assert.match(stats.stdout, /^total .*\$\d+\.\d\d$/m);

  const blocks = JSON.parse((await cli('stats', '--blocks', '--json')).stdout);
  assert.ok(blocks.blocks.length >= 2, `${blocks.blocks.length} blocks`);
  const sum = (k) => blocks.blocks.reduce((n, b) => n + b.totals[k], 0);
  assert.equal(sum('requests'), blocks.totals.requests, 'every request is in one window');
  assert.equal(sum('outputTokens'), blocks.totals.outputTokens);
  assert.ok(Math.abs(sum('cost') - blocks.totals.cost) < 1e-9);
  for (const b of blocks.blocks) {
    assert.ok(Date.parse(b.end) - Date.parse(b.start) === 5 * 3600_000 && Date.parse(b.lastAt) < Date.parse(b.end), JSON.stringify(b));
    assert.equal(new Date(b.start).getUTCMinutes(), 0, 'a window starts on the hour');
  }
  const text = await cli('stats', '--blocks');
  assert.match(text.stdout, /^BLOCK START/m);
  assert.equal(text.stdout.trim().split('\n').length, blocks.blocks.length + 1);
});
