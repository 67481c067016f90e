// appendUserMessage sends strings of 1,024 characters or more apart from the content's JSON,
// as UTF-16 code units, leaving the placeholder "\u0000<i>" in their place; native code writes
// them straight into the stored JSON. Every string must come back exactly (===), from the
// returned envelope, from messages(), after a reopen and in another process: lone surrogates,
// pairs, U+0000, quotes, backslashes and control characters included, at the length
// boundary, many at once, in nested arrays, and in content that may not be split at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, openStore, dumpInChild, sessionError } from './helpers/common.mjs';

/** Every awkward code unit: lone high and low surrogates, pairs, U+0000, JSON's escapes, C0 and C1 controls, U+2028/9, U+FFFF. */
const NASTY = 'a\uD800b\uDC00c😀d\u0000e"f\\g/h\n\r\t\b\f\u0001\u001f\u007f\u0080\u009f\u2028\u2029\uFFFE\uFFFF\uDBFF\uDFFF\uDFFF\uD800 漢字 ✓ →';

/** big returns a string of exactly n code units built of NASTY, tagged so each is distinct. */
function big(n, tag = '') {
  const s = (tag + NASTY).repeat(Math.ceil(n / (tag.length + NASTY.length)));
  return s.slice(0, n);
}

/** strings lists every string of a value, keys included, with its path. */
function strings(v, at = '$', out = []) {
  if (typeof v === 'string') out.push([at, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, `${at}[${i}]`, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push([`${at}{key}`, k]);
      strings(x, `${at}.${k}`, out);
    }
  }
  return out;
}

/** assertExact checks that got holds the same strings as want, each ===, and the same shape. */
function assertExact(got, want, label) {
  const g = strings(got);
  const w = strings(want);
  assert.equal(g.length, w.length, `${label}: as many strings`);
  for (let i = 0; i < w.length; i++) {
    assert.equal(g[i][0], w[i][0], `${label}: same place`);
    if (g[i][1] !== w[i][1]) {
      const at = [...w[i][1]].findIndex((_, j) => g[i][1].charCodeAt(j) !== w[i][1].charCodeAt(j));
      assert.fail(`${label}: ${w[i][0]} differs (length ${g[i][1].length} vs ${w[i][1].length}; first at ${at}: ` +
        `U+${g[i][1].charCodeAt(at).toString(16)} for U+${w[i][1].charCodeAt(at).toString(16)})`);
    }
  }
  assert.deepEqual(got, want, label);
}

/** callTool records an assistant message calling tool `id`, so that results for it are accepted. */
function callTool(s, id) {
  s.ingest({ type: 'message_start', model: 'claude-sonnet-4-5' });
  s.ingest({ type: 'tool_use', id, name: 'bash', input: { command: 'cat out.log' } });
  s.ingest({ type: 'done', stopReason: 'tool_use' });
}

/** CASES are user contents, each recorded as one message (tool results answer callTool). */
const CASES = {
  'a plain string prompt': () => big(5000, 'p'),
  'at the boundary: 1,023, 1,024 and 1,025 code units': () => [
    { type: 'text', text: big(1023, 'x') }, { type: 'text', text: big(1024, 'y') }, { type: 'text', text: big(1025, 'z') },
  ],
  'ending in a lone high surrogate, starting with a lone low one, only surrogates': () => [
    { type: 'text', text: big(2000, 'q') + '\uD83D' },
    { type: 'text', text: '\uDE00' + big(2000, 'r') },
    { type: 'text', text: '\uD800\uDC00\uDC00\uD800'.repeat(400) },
  ],
  'a tool result with a large string content': (s) => {
    callTool(s, 'toolu_str');
    return [{ type: 'tool_result', tool_use_id: 'toolu_str', content: big(200_000, 'log'), is_error: false }];
  },
  'small and large strings mixed, tool results with nested arrays, then text': (s) => {
    callTool(s, 'toolu_nest');
    return [
      {
        type: 'tool_result', tool_use_id: 'toolu_nest', content: [
          { type: 'text', text: big(3000, 'n1') }, { type: 'text', text: 'small "one" \uD800' },
          { type: 'text', text: big(70_000, 'n2') }, { type: 'text', text: '' },
        ],
      },
      { type: 'text', text: big(1500, 't') },
      { type: 'text', text: 'short \u0000 with a NUL inside' },
    ];
  },
  'large strings deep in a block\'s own fields, and as a key': () => [{
    type: 'text', text: 'see the attachment',
    citations: [[big(1100, 'c1'), 'x', [big(1200, 'c2'), { deeper: [big(1300, 'c3'), 7, null, true] }]]],
    [big(1100, 'key')]: 'a key is never split',
  }],
  'more than ten large strings in one message (two-digit placeholders)': () =>
    Array.from({ length: 23 }, (_, i) => ({ type: 'text', text: big(1024 + i, `#${i}#`) })),
  'a string starting with U+0000 (not split: it could pass for a placeholder)': () => [
    { type: 'text', text: '\u0000' + big(3000, 'z0') }, { type: 'text', text: big(3000, 'other') },
  ],
  'a key starting with U+0000 (not split either)': () => [
    { type: 'text', text: big(3000, 'k0'), extra: { '\u00001': 'looks like a placeholder', [`\u0000${'k'.repeat(1100)}`]: 1 } },
  ],
  'a small string that is exactly a placeholder': () => [
    { type: 'text', text: '\u00000' }, { type: 'text', text: '\u00001' }, { type: 'text', text: big(2048, 'real') },
  ],
};

test('large strings of user content come back exactly: the envelope, messages(), a reopened store, another process', async (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const recorded = [];
  for (const [name, make] of Object.entries(CASES)) {
    const content = make(s);
    const before = strings(content).map(([, v]) => v); // the caller's content is left as it was
    const env = s.appendUserMessage(content);
    assert.deepEqual(strings(content).map(([, v]) => v), before, `${name}: content untouched`);
    const want = { role: 'user', content: typeof content === 'string' ? [{ type: 'text', text: content }] : content };
    assertExact(env.message, want, `${name}: envelope`);
    assertExact(s.messages().at(-1), want, `${name}: messages()`);
    assertExact(s.envelopes().at(-1).message, want, `${name}: envelopes()`);
    recorded.push([name, s.envelopes().length - 1, want]);
  }

  await s.flush();
  const child = await dumpInChild(db, s.id);
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  const reopened = again.openSession(s.id);
  const messages = reopened.messages();
  const asyncMessages = await reopened.messagesAsync();
  const envelopes = reopened.envelopes();
  for (const [name, i, want] of recorded) {
    assertExact(messages[i], want, `${name}: reopened messages()`);
    assertExact(asyncMessages[i], want, `${name}: reopened messagesAsync()`);
    assertExact(envelopes[i].message, want, `${name}: reopened envelopes()`);
    assertExact(child.messages[i], want, `${name}: another process`);
  }
});

test('content that is not well formed is refused with its large strings, and nothing is recorded', (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  s.appendUserMessage('first');
  const before = s.envelopes();
  assert.throws(() => s.appendUserMessage([{ type: 'text', text: big(5000) }, { text: big(2000) }]), sessionError('INVALID_MESSAGE'));
  assert.throws(() => s.appendUserMessage([{ type: 'text', text: 42 }, { type: 'text', text: big(5000) }]), sessionError('INVALID_MESSAGE'));
  assert.throws(() => s.appendUserMessage([{ type: 'tool_result', tool_use_id: 'toolu_nobody', content: big(5000) }]), sessionError('UNKNOWN_TOOL_USE'));
  assert.deepEqual(s.envelopes(), before);
  const env = s.appendUserMessage([{ type: 'text', text: big(5000, 'after') }]);
  assertExact(env.message.content[0].text, big(5000, 'after'), 'the next message');
});

test('a small string holding a quote then U+0000, beside a large string, is recorded as given', (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const content = [
    { type: 'text', text: 'she said "\u0000" and "\u00000"' },
    { type: 'text', text: big(2000, 'L') },
    { type: 'text', text: 'x', ['k"\u00001']: 'a key too' },
  ];
  const env = s.appendUserMessage(content);
  assertExact(env.message, { role: 'user', content }, 'envelope');
  assertExact(s.messages().at(-1), { role: 'user', content }, 'messages()');
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  assertExact(again.openSession(s.id).messages().at(-1), { role: 'user', content }, 'reopened');
});

test('a plain string prompt keeps its lone surrogates whether or not it is split off', (t) => {
  const { db, store } = tempStore(t);
  const s = store.createSession();
  const prompts = ['a\uD800b', '\uDC00', big(100, 's'), '\u0000' + big(3000, 'g'), big(3000, 'split')];
  for (const p of prompts) {
    const env = s.appendUserMessage(p);
    assertExact(env.message.content[0].text, p, 'envelope');
    assertExact(s.messages().at(-1).content[0].text, p, `messages() of ${JSON.stringify(p.slice(0, 12))}`);
  }
  store.close();
  const again = openStore(db);
  t.after(() => again.close());
  assertExact(again.openSession(s.id).messages().map((m) => m.content[0].text), prompts, 'reopened');
});
