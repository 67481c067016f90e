// Resume: --continue (store.latestSession), --resume <id|prefix> (store.findSession), and
// what a resumed session shows of itself (session.details(), session.resumeSummary()).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sessionError, sleep, ISO_MS } from './helpers/common.mjs';
import { sk } from './helpers/common.mjs';

const PROJECTS = Array.from({ length: 10 }, (_, i) => `/work/project-${i}`);

/** fill creates n sessions spread over PROJECTS, each with one prompt, and closes them. */
async function fill(store, n) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const s = store.createSession({ projectPath: PROJECTS[i % PROJECTS.length] });
    s.appendUserMessage(`prompt ${i}`);
    ids.push(s.id);
    s.close();
  }
  await store.flush();
  return ids;
}

test('latestSession picks the session of the right project written to last, among 1,000', async (t) => {
  const { store } = tempStore(t);
  const ids = await fill(store, 1000);
  await sleep(5);

  // An old session of project-3 is written to again: it becomes that project's latest ...
  const old = store.openSession(ids[3]);
  old.ingest({ type: 'text', text: 'back to this one' });
  old.ingest({ type: 'done' });
  old.close();
  await store.flush();
  await sleep(5);
  // ... while other projects are written to after it, which must not matter.
  const other = store.createSession({ projectPath: PROJECTS[4] });
  other.appendUserMessage('newer, elsewhere');
  other.close();

  const latest = store.latestSession(PROJECTS[3]);
  t.after(() => latest.close());
  assert.ok(latest instanceof sk.Session);
  assert.equal(latest.id, ids[3]);
  assert.equal(latest.messages().at(-1).content[0].text, 'back to this one');

  // Without the rewrite, the latest of a project is its newest session.
  const latest5 = store.latestSession(PROJECTS[5]);
  assert.equal(latest5.id, ids[995]);
  latest5.close();
  assert.equal(store.latestSession(PROJECTS[4]).id, other.id);

  assert.equal(store.latestSession('/work/never-seen'), null);
  assert.throws(() => store.latestSession(42), TypeError);
});

test('latestSession defaults to the working directory', (t) => {
  const { store } = tempStore(t);
  assert.equal(store.latestSession(), null);
  const s = store.createSession();
  s.appendUserMessage('here');
  assert.equal(store.latestSession().id, s.id);
});

test('findSession opens by id or by a unique prefix; ambiguous and unknown prefixes fail clearly', async (t) => {
  const { store } = tempStore(t);
  const ids = await fill(store, 200);
  const target = ids[137];

  assert.equal(store.findSession(target).id, target);

  // The shortest prefix of target that no other id shares resolves to it.
  let n = 1;
  while (ids.filter((id) => id.startsWith(target.slice(0, n))).length > 1) n++;
  const unique = target.slice(0, n);
  const found = store.findSession(unique);
  assert.equal(found.id, target);
  assert.equal(found.messages()[0].content[0].text, 'prompt 137');

  // One character less is shared with another session: AMBIGUOUS_ID names the candidates.
  const shared = target.slice(0, n - 1);
  const sharing = ids.filter((id) => id.startsWith(shared));
  assert.ok(sharing.length > 1);
  assert.throws(() => store.findSession(shared), sessionError('AMBIGUOUS_ID', new RegExp(sharing[0])));
  assert.throws(() => store.findSession(shared), /give more of the id/);

  assert.throws(() => store.findSession('ffffffff'), sessionError('SESSION_NOT_FOUND', /ffffffff/));
  assert.throws(() => store.findSession('not-an-id'), sessionError('SESSION_NOT_FOUND'));
  assert.throws(() => store.findSession(''), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.findSession(undefined), TypeError);
});

test('findSession matches the id exactly before treating it as a prefix', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('one');
  // A prefix that starts every id of the store is ambiguous as soon as there are two.
  store.createSession();
  assert.equal(store.findSession(s.id).id, s.id);
  assert.throws(() => store.findSession(s.id.slice(0, 4)), sessionError('AMBIGUOUS_ID'));
});

/** converse records a prompt, a tool call with its result, and a reply with usage. */
function converse(s, { prompt, model, usage }) {
  s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', model });
  s.ingest({ type: 'tool_use', id: `toolu_${prompt.length}_${model}`, name: 'read_file', input: { path: 'a.txt' } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage });
  s.ingest({ type: 'tool_result', toolUseId: `toolu_${prompt.length}_${model}`, content: 'hello' });
  s.ingest({ type: 'message_start', model });
  s.ingest({ type: 'text', text: 'It says hello.' });
  s.ingest({ type: 'done', stopReason: 'end_turn', usage });
}

test('info: counts, times, token totals and usage by model, priced by the built-in prices and the caller\'s', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ projectPath: '/work/info', provider: 'claude', model: 'claude-sonnet-4-5', contextWindow: 200000 });
  const before = Date.now();
  converse(s, { prompt: 'Read a.txt', model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 4000 } });
  converse(s, { prompt: 'Again, cheaper', model: 'claude-haiku-4-5', usage: { input_tokens: 2000, output_tokens: 50 } });

  const info = s.details();
  assert.equal(info.id, s.id);
  assert.equal(info.title, 'Read a.txt');
  assert.equal(info.projectPath, '/work/info');
  assert.equal(info.model, 'claude-sonnet-4-5');
  assert.equal(info.contextWindow, 200000);
  assert.equal(info.status, 'active');
  assert.equal(info.messageCount, 8);
  assert.equal(info.toolCount, 2);
  assert.equal(info.interactions, 2);
  assert.equal(info.assistantMessages, 4);
  assert.equal(info.toolResultMessages, 2);
  assert.deepEqual(info.tokens, { inputTokens: 6000, outputTokens: 300, cacheReadInputTokens: 8000, cacheCreationInputTokens: 0, contextTokens: 2000 });
  for (const k of ['createdAt', 'updatedAt', 'lastMessageAt', 'lastAccessedAt']) {
    assert.match(info[k], ISO_MS, k);
    assert.ok(Date.parse(info[k]) >= before - 1000, k);
  }
  assert.equal('archivedAt' in info, false);
  assert.deepEqual(info.usage.map(({ cost, ...u }) => u), [
    { model: 'claude-haiku-4-5', requests: 2, inputTokens: 4000, outputTokens: 100, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 },
    { model: 'claude-sonnet-4-5-20250929', requests: 2, inputTokens: 2000, outputTokens: 200, cacheReadInputTokens: 8000, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 },
  ]);

  // Without prices, the built-in list prices (per million tokens: Sonnet 4.5 $3 in, $15 out,
  // $0.30 cache read; Haiku 4.5 $1 in, $5 out) apply, the dated model by prefix.
  const sonnet = (2000 * 3 + 200 * 15 + 8000 * 0.3) / 1e6;
  const haiku = (4000 * 1 + 100 * 5) / 1e6;
  assert.ok(Math.abs(info.usage[1].cost - sonnet) < 1e-12);
  assert.ok(Math.abs(info.usage[0].cost - haiku) < 1e-12);
  assert.ok(Math.abs(info.cost - (sonnet + haiku)) < 1e-12);
  assert.equal('unpricedModels' in info, false);

  // The caller's prices lay over the built-in ones: by the same name, or a model of its own.
  const prices = { 'claude-haiku-4-5': { input: 2, output: 10 } };
  const priced = s.details({ prices });
  assert.ok(Math.abs(priced.usage[0].cost - 2 * haiku) < 1e-12);
  assert.ok(Math.abs(priced.cost - (sonnet + 2 * haiku)) < 1e-12);
  const dearer = s.details({ prices: { 'claude-sonnet-4-5': { input: 3, output: 15 } } });
  assert.ok(Math.abs(dearer.usage[1].cost - (2000 * 3 + 200 * 15 + 8000 * 3) / 1e6) < 1e-12, 'a cache rate not given is the input rate');

  assert.deepEqual(await s.detailsAsync({ prices }), priced, 'detailsAsync reads the same off the JS thread');
  await assert.rejects(s.detailsAsync({ prices: { x: { input: -1, output: 0 } } }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => s.details({ prices: { x: { input: -1, output: 0 } } }), sessionError('INVALID_ARGUMENT', /prices/));
  assert.throws(() => s.details('cheap'), TypeError);
});

test('info: a restored token tracker beyond what messages report counts for the session model', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ model: 'gpt-5' });
  s.appendUserMessage('hi');
  s.restoreTokenTracker({ inputTokens: 500, outputTokens: 20, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, contextTokens: 500 });
  const [usage] = s.details().usage;
  assert.deepEqual({ ...usage, cost: undefined }, { model: 'gpt-5', requests: 0, inputTokens: 500, outputTokens: 20, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0, cost: undefined });
  assert.ok(Math.abs(usage.cost - (500 * 1.25 + 20 * 10) / 1e6) < 1e-12, 'priced at gpt-5\'s built-in base rates');
});

test('resumeSummary: seed 003 summary as data and as text', async (t) => {
  const { store } = tempStore(t);
  const s = store.createSession({ model: 'claude-sonnet-4-5', contextWindow: 200000 });
  for (let i = 0; i < 12; i++) {
    s.appendUserMessage(i === 0 ? 'Implement auth system' : `step ${i}`);
    s.ingest({ type: 'text', text: 'ok' });
    s.ingest({ type: 'done', usage: { input_tokens: 1000 + i, output_tokens: 10 } });
  }
  s.ingest({ type: 'done', usage: { input_tokens: 22451, output_tokens: 0 } });
  const info = s.details();
  const now = new Date(Date.parse(info.lastMessageAt) + 2 * 3600_000 + 5 * 60_000);
  const summary = s.resumeSummary({ now, prices: { 'claude-sonnet-4-5': { input: 3, output: 15 } } });

  const input = 12 * 1000 + 66 + 22451;
  assert.equal(summary.id, s.id);
  assert.equal(summary.title, 'Implement auth system');
  assert.equal(summary.lastActivity, info.lastMessageAt);
  assert.equal(summary.lastActivityAgo, '2 hours ago');
  assert.equal(summary.interactions, 12);
  assert.equal(summary.totalTokens, input + 120);
  assert.ok(Math.abs(summary.cost - (input * 3 + 120 * 15) / 1e6) < 1e-12);
  assert.equal(summary.contextTokens, 22451);
  assert.equal(summary.contextWindow, 200000);
  assert.equal(summary.contextPercent, 11.2);

  const lines = summary.text.split('\n');
  assert.ok(lines.includes(`Session ID: ${s.id}`));
  assert.ok(lines.includes('Title: Implement auth system'));
  assert.ok(lines.some((l) => /^Last Activity: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(2 hours ago\)$/.test(l)), summary.text);
  assert.ok(lines.includes('Total Interactions: 12'));
  assert.ok(lines.includes(`Total Tokens Used: ${(input + 120).toLocaleString('en-US')}`));
  assert.ok(lines.includes(`Total Cost: $${((input * 3 + 120 * 15) / 1e6).toFixed(2)}`));
  assert.ok(lines.includes('Context Usage: 22,451 / 200,000 tokens (11%)'), summary.text);
  assert.deepEqual(await s.resumeSummaryAsync({ now, prices: { 'claude-sonnet-4-5': { input: 3, output: 15 } } }), summary);

  // Without a window or any usage, the summary says what it knows.
  const bare = store.createSession();
  const text = bare.resumeSummary().text;
  assert.match(text, /Context Usage: 0 tokens$/);
  assert.doesNotMatch(text, /Cost/);
  assert.match(text, /Last Activity: .* \(just now\)/);
});

test('relativeTime reads like people talk', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (ms) => sk.relativeTime(new Date(now.getTime() - ms), now);
  assert.equal(ago(5_000), 'just now');
  assert.equal(ago(-60_000), 'just now');
  assert.equal(ago(60_000), '1 minute ago');
  assert.equal(ago(59 * 60_000), '59 minutes ago');
  assert.equal(ago(2 * 3600_000), '2 hours ago');
  assert.equal(ago(30 * 3600_000), 'yesterday');
  assert.equal(ago(3 * 86400_000), '3 days ago');
  assert.equal(ago(65 * 86400_000), '2 months ago');
  assert.equal(ago(800 * 86400_000), '2 years ago');
  assert.equal(sk.relativeTime('2026-03-10T11:00:00Z', now), '1 hour ago');
  assert.equal(sk.relativeTime('garbage', now), 'unknown');
});
