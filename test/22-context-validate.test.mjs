// validateContext(messages, format): the rules of the API `format` names, which every built
// context passes, exported so that users can check contexts of their own.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sk, tempStore, sessionError } from './helpers/common.mjs';
import { recordSeed000 } from './helpers/fixtures.mjs';

const { validateContext } = sk;

const codes = (messages, format) => validateContext(messages, format).problems.map((p) => p.code);

const prompt = { role: 'user', content: [{ type: 'text', text: 'List the files' }] };
const call = { role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] };
const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.go' }] };

test('a well-formed Anthropic conversation is valid', () => {
  assert.deepEqual(validateContext([prompt, call, result, { role: 'assistant', content: 'a.go' }], 'anthropic'), { valid: true, problems: [] });
  assert.deepEqual(validateContext([prompt]), { valid: true, problems: [] }, 'the format defaults to anthropic');
});

test('Anthropic: each broken rule is reported with its index and a stable code', () => {
  assert.deepEqual(codes([prompt, call], 'anthropic'), ['MISSING_TOOL_RESULT']);
  assert.deepEqual(codes([prompt, call, prompt], 'anthropic'), ['MISSING_TOOL_RESULT']);
  assert.deepEqual(codes([prompt, { role: 'assistant', content: 'hi' }, result], 'anthropic'), ['ORPHAN_TOOL_RESULT']);
  assert.deepEqual(codes([call, result], 'anthropic'), ['FIRST_NOT_USER']);
  assert.deepEqual(codes([prompt, prompt], 'anthropic'), ['ROLES_NOT_ALTERNATING']);
  assert.deepEqual(codes([prompt, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }] }], 'anthropic'), ['UNSIGNED_THINKING']);
  assert.deepEqual(codes([{ role: 'user', content: [{ type: 'text', text: '' }] }], 'anthropic'), ['EMPTY_TEXT']);
  assert.deepEqual(codes([], 'anthropic'), ['EMPTY_CONTEXT']);
  const [p] = validateContext([prompt, call, prompt], 'anthropic').problems;
  assert.equal(p.index, 2);
  assert.match(p.message, /toolu_1/);
});

test("messages() is the stored record, not a request: its message fields are reported", (t) => {
  const { store } = tempStore(t);
  const s = store.createSession();
  recordSeed000(s);
  const v = validateContext(s.messages(), 'anthropic');
  assert.equal(v.valid, false);
  assert.ok(v.problems.every((p) => p.code === 'UNEXPECTED_FIELD'), JSON.stringify(v.problems));
  const ctx = s.buildContext({ contextWindow: 200_000 });
  assert.deepEqual(validateContext(ctx.messages, 'anthropic'), { valid: true, problems: [] });
  assert.deepEqual(ctx.messages[1].content[0], s.messages()[1].content[0], 'the signed thinking block is passed back as stored');
});

test('OpenAI Chat Completions: tool calls answered by tool messages, nothing else in between', () => {
  const user = { role: 'user', content: 'List the files' };
  const assistant = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }] };
  const tool = { role: 'tool', tool_call_id: 'call_1', content: 'a.go' };
  assert.deepEqual(validateContext([{ role: 'system', content: 'sys' }, user, assistant, tool, { role: 'assistant', content: 'a.go' }], 'openai'), { valid: true, problems: [] });
  assert.deepEqual(codes([user, assistant, user], 'openai'), ['MISSING_TOOL_RESULT']);
  assert.deepEqual(codes([user, tool], 'openai'), ['ORPHAN_TOOL_RESULT']);
  assert.deepEqual(codes([user, { ...assistant, tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: '{bad' } }] }], 'openai'), ['INVALID_TOOL_CALL', 'MISSING_TOOL_RESULT']);
  assert.deepEqual(codes([prompt, call, result], 'openai'), ['INVALID_BLOCK', 'INVALID_BLOCK'], 'Anthropic blocks are not Chat Completions parts');
});

test('wrong arguments', () => {
  assert.throws(() => validateContext('[]', 'anthropic'), TypeError);
  assert.throws(() => validateContext([], 7), TypeError);
  assert.throws(() => validateContext([], 'gemini'), sessionError('INVALID_ARGUMENT', /format/));
  assert.deepEqual(codes([1, 2], 'anthropic'), ['NOT_AN_ARRAY']);
});
