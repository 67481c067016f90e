// usePersistentSession: a component that owns a session, rendered by Ink with the real addon.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, dumpInChild } from './helpers/common.mjs';
import { recordSeed000, SEED000_PROMPT, SEED000_CHUNKS, SEED000_MESSAGES, SEED000_TRACKER } from './helpers/fixtures.mjs';
import { kit, h, render, frame, waitFor } from './helpers/ink.mjs';
import { Box, Text } from 'ink';

const { usePersistentSession } = kit;

/**
 * mountProbe renders a component that owns a session through the hook and prints what the
 * hook exposes, one `name=value` line each; `latest()` is the hook's last return value, for
 * the test to call, and `shown()` what the screen says now.
 */
function mountProbe(t, options) {
  let latest = null;
  function Probe(props) {
    const s = usePersistentSession(props);
    latest = s;
    const last = s.messages.at(-1);
    const lastText = last ? last.content.map((b) => b.text ?? `[${b.type}]`).join('') : '-';
    const lines = [`status=${s.status}`, `id=${s.sessionId ?? '-'}`, `messages=${s.messages.length}`,
      `context=${s.tokenUsage.contextTokens}`, `last=${JSON.stringify(lastText)}`];
    return h(Box, { flexDirection: 'column' }, lines.map((line) => h(Text, { key: line, wrap: 'truncate' }, line)));
  }
  const ui = render(h(Probe, options));
  t.after(() => ui.unmount());
  const shown = () => Object.fromEntries(frame(ui).split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  /** until waits until what the screen shows has every field of `want`. */
  const until = (want) => waitFor(() => {
    const now = shown();
    return Object.entries(want).every(([k, v]) => (v instanceof RegExp ? v.test(now[k]) : now[k] === String(v))) && now;
  }, { describe: () => `wanted ${JSON.stringify(want, (k, v) => (v instanceof RegExp ? String(v) : v))}, screen:\n${frame(ui)}` });
  return { ui, Probe, latest: () => latest, shown, until };
}

test('resuming: the hook opens the session and exposes its stored messages, envelopes and token usage', async (t) => {
  const { store } = tempStore(t);
  const recorded = store.createSession();
  recordSeed000(recorded);
  recorded.close();

  const { latest, shown, until } = mountProbe(t, { store, sessionId: recorded.id });
  assert.equal(shown().status, 'loading');
  await until({ status: 'idle' });
  assert.deepEqual(shown(), {
    status: 'idle', id: recorded.id, messages: '4', context: String(SEED000_TRACKER.contextTokens), last: '"The config uses port 8080."',
  });
  const s = latest();
  assert.deepEqual(s.messages, SEED000_MESSAGES);
  assert.deepEqual(s.envelopes.map((e) => [e.type, e.status]), [
    ['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'complete'], ['assistant', 'complete'],
  ]);
  assert.deepEqual(s.tokenUsage, SEED000_TRACKER);
  assert.equal(s.session.id, recorded.id);
  assert.equal(s.error, null);
});

test('a new session is created on the first write, with the create options, and every chunk is stored', async (t) => {
  const { db, store } = tempStore(t);
  const { latest, shown, until } = mountProbe(t, { store, create: { projectPath: '/work/app', model: 'claude-opus-4-5', title: 'from the hook' } });
  assert.deepEqual(shown(), { status: 'idle', id: '-', messages: '0', context: '0', last: '"-"' });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(store.listSessions().length, 0, 'mounting alone creates no session');

  latest().appendUserMessage(SEED000_PROMPT, { context: { cwd: '/work/app', gitBranch: 'main' } });
  const [info] = store.listSessions();
  const { id } = await until({ id: info.id, messages: 1, last: JSON.stringify(SEED000_PROMPT) });
  assert.deepEqual([info.projectPath, info.model, info.title], ['/work/app', 'claude-opus-4-5', 'from the hook']);
  assert.equal(latest().sessionId, id);

  // Streaming: the hook shows the message growing, and says so.
  latest().ingest(SEED000_CHUNKS[0]);
  latest().ingest({ type: 'text', text: 'Let me ' });
  await until({ status: 'streaming', messages: 2, last: '"Let me "' });
  for (const chunk of SEED000_CHUNKS.slice(4)) latest().ingest(chunk);
  await until({ status: 'idle', messages: 4, last: '"The config uses port 8080."' });
  assert.deepEqual(latest().tokenUsage, SEED000_TRACKER);
  assert.deepEqual(latest().envelopes[0].context, { cwd: '/work/app', gitBranch: 'main' }, 'message options reach the session');

  await latest().flush();
  const there = await dumpInChild(db, id);
  assert.equal(there.messages.length, 4);
  assert.deepEqual(there.messages[2], SEED000_MESSAGES[2]);
  assert.deepEqual(there.messages[3], SEED000_MESSAGES[3]);
});

test('a chunk the session refuses throws from ingest() and changes nothing', async (t) => {
  const { store } = tempStore(t);
  const { latest, shown, until } = mountProbe(t, { store });
  latest().appendUserMessage('hi');
  await until({ messages: 1 });
  assert.throws(() => latest().ingest({ type: 'text' }), (err) => err.code === 'INVALID_CHUNK');
  assert.throws(() => latest().ingest({ type: 'tool_result', toolUseId: 'toolu_none', content: 'x' }), (err) => err.code === 'UNKNOWN_TOOL_USE');
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual([shown().status, shown().messages, shown().last], ['idle', '1', '"hi"']);
});

test('unmounting closes the session: a reply cut off mid-stream is kept and marked interrupted', async (t) => {
  const { db, store } = tempStore(t);
  const { ui, latest, until } = mountProbe(t, { store });
  latest().appendUserMessage('Tell me a long story');
  latest().ingest({ type: 'message_start', id: 'msg_cut' });
  latest().ingest({ type: 'text', text: 'Once upon a ' });
  const { id } = await until({ status: 'streaming' });
  ui.unmount();

  assert.throws(() => latest().ingest({ type: 'text', text: 'time' }), /unmounted/);
  const again = store.openSession(id);
  const [, reply] = again.envelopes();
  assert.equal(reply.status, 'interrupted');
  assert.deepEqual(reply.message.content, [{ type: 'text', text: 'Once upon a ' }]);
  store.close();
  const there = await dumpInChild(db, id);
  assert.equal(there.envelopes[1].status, 'interrupted');
});

test('an id that names no session gives status error with SESSION_NOT_FOUND, and writes throw it', async (t) => {
  const { store } = tempStore(t);
  const { latest, until } = mountProbe(t, { store, sessionId: '01900000-0000-7000-8000-000000000000' });
  await until({ status: 'error' });
  assert.equal(latest().error.code, 'SESSION_NOT_FOUND');
  assert.throws(() => latest().appendUserMessage('hi'), (err) => err.code === 'SESSION_NOT_FOUND');
  assert.equal(store.listSessions().length, 0, 'a failed resume does not start a session instead');
});

test('changing sessionId closes the session held and opens the other', async (t) => {
  const { store } = tempStore(t);
  const a = store.createSession();
  a.appendUserMessage('first session');
  const b = store.createSession();
  recordSeed000(b);
  a.close();
  b.close();

  const { ui, Probe, latest, until } = mountProbe(t, { store, sessionId: a.id });
  await until({ status: 'idle', messages: 1, last: '"first session"' });
  latest().ingest({ type: 'text', text: 'left streaming' });
  ui.rerender(h(Probe, { store, sessionId: b.id }));
  await until({ status: 'idle', id: b.id, messages: 4 });
  assert.deepEqual(latest().messages, SEED000_MESSAGES);
  const reopened = store.openSession(a.id);
  t.after(() => reopened.close());
  assert.equal(reopened.envelopes()[1].status, 'interrupted', 'the first session was closed when the id changed');
});

test('run() hands the session to work that writes to it directly, and shows the stream as it goes', async (t) => {
  const { store } = tempStore(t);
  const { latest, shown, until } = mountProbe(t, { store, refreshMs: 20 });
  latest().appendUserMessage(SEED000_PROMPT);
  let release;
  const gate = new Promise((r) => { release = r; });
  const done = latest().run(async (session) => {
    session.ingest({ type: 'message_start', id: 'msg_run' });
    session.ingest({ type: 'text', text: 'first half, ' });
    await until({ status: 'streaming', messages: 2, last: '"first half, "' });
    session.ingest({ type: 'text', text: 'second half' });
    await until({ last: '"first half, second half"' });
    await gate;
    session.ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 100, output_tokens: 5 } });
    return 'result of work';
  });
  await until({ last: '"first half, second half"' });
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(shown().status, 'streaming', 'still streaming while the work has not settled');
  release();
  assert.equal(await done, 'result of work');
  await until({ status: 'idle', messages: 2, context: 100 });

  // A failing work rejects run() with its error; the hook goes back to idle.
  await assert.rejects(latest().run(async () => { throw new Error('stream broke'); }), /stream broke/);
  await until({ status: 'idle' });
});

test('at every step of a stream, what the hook exposes equals what the session reads', async (t) => {
  const { store } = tempStore(t);
  const earlier = store.createSession();
  recordSeed000(earlier);
  earlier.close();
  const { latest, until } = mountProbe(t, { store, sessionId: earlier.id, refreshMs: 5 });
  await until({ status: 'idle', messages: 4 });
  const session = latest().session;
  const steps = [
    () => latest().appendUserMessage('And the host?'),
    () => latest().ingest({ type: 'message_start', id: 'msg_host' }),
    () => latest().ingest({ type: 'thinking', thinking: 'It is in the same file.' }),
    () => latest().ingest({ type: 'text', text: 'Reading ' }),
    () => latest().ingest({ type: 'text', text: 'it again.' }),
    () => latest().ingest({ type: 'tool_use_start', id: 'toolu_host', name: 'read_file' }),
    () => latest().ingest({ type: 'tool_use_delta', partialJson: '{"path": "/etc/config.json"}' }),
    () => latest().ingest({ type: 'done', stopReason: 'tool_use', usage: { input_tokens: 20000, output_tokens: 40 } }),
    () => latest().ingest({ type: 'tool_result', toolUseId: 'toolu_host', content: '{"port": 8080, "host": "localhost"}' }),
    () => latest().ingest({ type: 'text', text: 'The host is ' }), // begins a new message: the results' message ends
    () => latest().ingest({ type: 'text', text: 'localhost.' }),
    () => latest().ingest({ type: 'done', stopReason: 'end_turn', usage: { input_tokens: 20100, output_tokens: 8 } }),
  ];
  for (const [i, step] of steps.entries()) {
    step();
    const want = { envelopes: session.envelopes(), messages: session.messages(), tokenUsage: session.tokenTracker() };
    await waitFor(() => {
      const s = latest();
      try {
        assert.deepEqual({ envelopes: s.envelopes, messages: s.messages, tokenUsage: s.tokenUsage }, want);
        return true;
      } catch {
        return false;
      }
    }, { describe: () => `step ${i}: the hook shows ${JSON.stringify(latest().envelopes.map((e) => [e.status, e.message.content]))}` });
  }
  assert.deepEqual(latest().envelopes.map((e) => e.status).slice(4), ['complete', 'complete', 'complete', 'complete']);
});

test('refresh() shows what changed without the hook: a rewind moves the head back', async (t) => {
  const { store } = tempStore(t);
  const { latest, until } = mountProbe(t, { store });
  const first = latest().appendUserMessage('first question');
  latest().ingest({ type: 'text', text: 'first answer' });
  latest().ingest({ type: 'done' });
  latest().appendUserMessage('second question');
  latest().ingest({ type: 'text', text: 'second answer' });
  latest().ingest({ type: 'done' });
  await until({ messages: 4, last: '"second answer"' });

  await latest().session.rewind(first.uuid);
  await latest().refresh();
  await until({ messages: 1, last: '"first question"' });
  assert.deepEqual(latest().envelopes, latest().session.envelopes());
  latest().appendUserMessage('on a new branch');
  await until({ messages: 2, last: '"on a new branch"' });
});

test('two components own two sessions of one store independently', async (t) => {
  const { store } = tempStore(t);
  const one = mountProbe(t, { store });
  const two = mountProbe(t, { store });
  one.latest().appendUserMessage('to one');
  two.latest().appendUserMessage('to two');
  const a = await one.until({ last: '"to one"' });
  const b = await two.until({ last: '"to two"' });
  assert.notEqual(a.id, b.id);
  assert.deepEqual(store.listSessions().map((i) => i.id).sort(), [a.id, b.id].sort());
});
