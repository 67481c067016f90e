// Full-text search (SQLite FTS5, kept in step by triggers) and usage statistics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore, tempStore, sessionError } from './helpers/common.mjs';

/** conversation records a prompt, a tool call, its result and an answer. */
function conversation(store, projectPath, { prompt, command, output, answer, model = 'claude-sonnet-4-5', usage }) {
  const s = store.createSession({ projectPath, model: 'claude-sonnet-4-5' });
  s.appendUserMessage(prompt);
  s.ingest({ type: 'message_start', model });
  s.ingest({ type: 'thinking', thinking: 'secretthought about ' + prompt });
  s.ingest({ type: 'tool_use', id: `toolu_${s.id}`, name: 'bash', input: { command } });
  s.ingest({ type: 'done', stopReason: 'tool_use', usage });
  s.ingest({ type: 'tool_result', toolUseId: `toolu_${s.id}`, content: output });
  s.ingest({ type: 'message_start', model });
  s.ingest({ type: 'text', text: answer });
  s.ingest({ type: 'done', usage });
  return s;
}

test('search finds prompts, tool calls, tool results and answers; thinking is not searched', async (t) => {
  const { store } = tempStore(t);
  const auth = conversation(store, '/work/api', {
    prompt: 'Why does the login endpoint return 500?', command: 'grep -rn authenticate src/',
    output: 'src/auth.go:42: func authenticate(token string) error', answer: 'The JWT secret is unset in production.',
  });
  const ui = conversation(store, '/work/web', {
    prompt: 'Make the login button blue', command: 'sed -i s/red/blue/ button.css',
    output: [{ type: 'text', text: 'edited button.css' }, { type: 'text', text: 'stylelint passed' }], answer: 'Done: the button is blue.',
  });
  const env = (s) => s.envelopes();

  const hit = (s, i) => ({ sessionId: s.id, messageUuid: env(s)[i].uuid });
  const ids = (hits) => hits.map((h) => ({ sessionId: h.sessionId, messageUuid: h.messageUuid }));

  assert.deepEqual(ids(store.search('endpoint')), [hit(auth, 0)], 'a prompt');
  assert.deepEqual(new Set(ids(store.search('authenticate')).map((h) => h.messageUuid)), new Set([env(auth)[1].uuid, env(auth)[2].uuid]), 'a tool call and its result');
  assert.deepEqual(ids(store.search('stylelint')), [hit(ui, 2)], 'text inside a tool result given as blocks');
  assert.deepEqual(ids(store.search('JWT production')), [hit(auth, 3)], 'every word must occur');
  assert.deepEqual(store.search('JWT blue'), []);
  assert.deepEqual(ids(store.search('authentic')), ids(store.search('authenticate')), 'a word matches the start of longer ones');
  assert.deepEqual(store.search('secretthought'), [], 'thinking is not searched');
  assert.equal(store.search('login').length, 2);
  assert.deepEqual(ids(store.search('login', { projectPath: '/work/web' })), [hit(ui, 0)]);
  assert.equal(store.search('login', { limit: 1 }).length, 1);

  const [h] = store.search('JWT', { highlight: ['[', ']'] });
  assert.deepEqual(Object.keys(h).sort(), ['messageUuid', 'projectPath', 'role', 'sessionId', 'sessionTitle', 'snippet', 'timestamp']);
  assert.equal(h.snippet, 'The [JWT] secret is unset in production.');
  assert.equal(h.role, 'assistant');
  assert.equal(h.sessionTitle, 'Why does the login endpoint return 500?');
  assert.equal(h.projectPath, '/work/api');
  assert.equal(h.timestamp, env(auth)[3].timestamp);
  assert.equal(store.search('JWT')[0].snippet, 'The JWT secret is unset in production.', 'no markers unless asked');

  // Text FTS5 would read as syntax is taken literally.
  for (const q of ['"unbalanced', 'a* OR b', 'NOT (x', 's/red/blue/', 'src/auth.go:42:', '-rn']) {
    assert.doesNotThrow(() => store.search(q), q);
  }
  assert.deepEqual(ids(store.search('src/auth.go:42')), [hit(auth, 2)]);

  assert.deepEqual(await store.searchAsync('stylelint'), store.search('stylelint'));
  assert.throws(() => store.search('   '), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.search('x', { limit: -1 }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.search(42), TypeError);
  await assert.rejects(store.searchAsync(''), sessionError('INVALID_ARGUMENT'));
});

test('the index follows writes: streamed text once complete, large outputs, deletes, a reopened store', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('stream please');
  s.ingest({ type: 'text', text: 'partialword arriving' });
  await s.flush();
  assert.deepEqual(store.search('partialword'), [], 'a block still streaming is not indexed');
  s.ingest({ type: 'done' });
  assert.equal(store.search('partialword').length, 1, 'indexed once complete');

  const big = s;
  big.appendUserMessage('read the log');
  big.ingest({ type: 'tool_use', id: 'toolu_log', name: 'read_file', input: { path: 'app.log' } });
  big.ingest({ type: 'tool_result', toolUseId: 'toolu_log', content: `${'line of noise\n'.repeat(2000)}needleinthehaystack` });
  assert.equal(store.search('needleinthehaystack').length, 1, 'a tool output stored as a blob is searched too');

  const other = store.createSession();
  other.appendUserMessage('partialword again');
  store.archiveSession(other.id);
  assert.equal(store.search('partialword').length, 2, 'archived sessions are searched');
  store.deleteSession(other.id);
  assert.deepEqual(store.search('partialword').map((h) => h.sessionId), [s.id], 'a deleted session is gone from the index');

  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  assert.equal(again.search('needleinthehaystack')[0].sessionId, s.id);
});

test('search among 1,000 sessions finds the one message', async (t) => {
  const { store } = tempStore(t);
  let target;
  for (let i = 0; i < 1000; i++) {
    const s = store.createSession({ projectPath: `/p/${i % 7}` });
    s.appendUserMessage(i === 613 ? 'the flux capacitor overheats' : `ordinary prompt number ${i}`);
    s.ingest({ type: 'text', text: `ordinary answer ${i}` });
    s.ingest({ type: 'done' });
    if (i === 613) target = s;
    s.close();
  }
  const [hit, ...rest] = await store.searchAsync('capacitor');
  assert.deepEqual(rest, []);
  assert.equal(hit.sessionId, target.id);
  assert.equal(store.search('ordinary').length, 50, 'the default limit');
  assert.equal(store.search('ordinary', { limit: 5000 }).length, 1999, 'every matching message once');
});

test('stats sums tokens by day and model, priced by the built-in prices and the caller\'s', async (t) => {
  const { store } = tempStore(t);
  conversation(store, '/a', { prompt: 'one', command: 'ls', output: 'x', answer: 'y', model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 500 } });
  conversation(store, '/a', { prompt: 'two', command: 'ls', output: 'x', answer: 'y', model: 'claude-haiku-4-5', usage: { input_tokens: 200, output_tokens: 20 } });
  conversation(store, '/b', { prompt: 'three', command: 'ls', output: 'x', answer: 'y', model: '', usage: { input_tokens: 10, output_tokens: 1 } });

  const offset = -new Date().getTimezoneOffset();
  const today = new Date(Date.now() + offset * 60_000).toISOString().slice(0, 10);
  const st = store.stats();
  assert.deepEqual(st.days, [
    { day: today, model: 'claude-haiku-4-5', requests: 2, inputTokens: 400, outputTokens: 40, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 },
    { day: today, model: 'claude-sonnet-4-5', requests: 2, inputTokens: 20, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 },
    { day: today, model: 'claude-sonnet-4-5-20250929', requests: 2, inputTokens: 2000, outputTokens: 200, cacheReadInputTokens: 1000, cacheCreationInputTokens: 0, cacheCreation1hInputTokens: 0 },
  ].map((r) => ({ ...r, cost: st.days.find((d) => d.model === r.model).cost })), 'a message that names no model counts for its session model');
  assert.equal(st.totals.requests, 6);
  assert.equal(st.totals.inputTokens, 2420);
  assert.equal('unpricedModels' in st, false);
  // Built-in list prices without a prices option: Sonnet 4.5 $3 in, $15 out, $0.30 cache read.
  assert.ok(Math.abs(st.days[2].cost - (2000 * 3 + 200 * 15 + 1000 * 0.3) / 1e6) < 1e-12);

  const priced = store.stats({ prices: { 'claude-sonnet-4-5': { input: 6, output: 30, cacheRead: 0.6 } } });
  const sonnetDated = (2000 * 6 + 200 * 30 + 1000 * 0.6) / 1e6;
  const sonnet = (20 * 6 + 2 * 30) / 1e6;
  const haiku = (400 * 1 + 40 * 5) / 1e6;
  assert.ok(Math.abs(priced.days[2].cost - sonnetDated) < 1e-12);
  assert.ok(Math.abs(priced.totals.cost - (sonnetDated + sonnet + haiku)) < 1e-12);

  conversation(store, '/c', { prompt: 'four', command: 'ls', output: 'x', answer: 'y', model: 'local-llama', usage: { input_tokens: 5, output_tokens: 5 } });
  const partly = store.stats();
  assert.deepEqual(partly.unpricedModels, ['local-llama'], 'a model without a price is named');
  assert.equal('cost' in partly.days.find((d) => d.model === 'local-llama'), false);

  assert.deepEqual(store.stats({ projectPath: '/b' }).days.map((r) => r.model), ['claude-sonnet-4-5']);
  assert.deepEqual(store.stats({ since: new Date(Date.now() + 3600_000) }).days, []);
  assert.deepEqual(store.stats({ until: '2000-01-01T00:00:00Z' }).days, []);
  assert.equal(store.stats({ since: new Date(Date.now() - 3600_000) }).totals.requests, 8);
  // Another zone's calendar day, 14 hours ahead of UTC.
  const ahead = new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
  assert.deepEqual([...new Set(store.stats({ utcOffsetMinutes: 14 * 60 }).days.map((r) => r.day))], [ahead]);
  assert.deepEqual(await store.statsAsync(), partly);
  assert.throws(() => store.stats({ utcOffsetMinutes: 10_000 }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.stats({ since: 'yesterday' }), sessionError('INVALID_ARGUMENT'));
  assert.throws(() => store.stats('today'), TypeError);
});
