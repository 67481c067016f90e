// sessionkeep/openai-agents: a durable Session for the real @openai/agents. Items round-trip
// exactly through a store reopened in another process; popItem and clearSession rewind and
// keep what they removed in the tree; and a run of the SDK's own Runner with a scripted
// model (helpers/agents-child.mjs) resumes from the session in a new process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { helper, openStore, runNode, tempStore } from './helpers/common.mjs';

// The subpath as an app imports it (the package's exports map, by self-reference).
const { SessionkeepAgentsSession } = createRequire(import.meta.url)('sessionkeep/openai-agents');
const CHILD = helper('agents-child.mjs');

async function child(args) {
  const r = await runNode(CHILD, args, { timeoutMs: 60000 });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// The checkout pins @openai/agents in package.json; make test-matrix runs this file once more
// on Node 22 with $SESSIONKEEP_TEST_AGENTS naming an install of test/matrix/agents-newest,
// whose newest version test/matrix/resolve-agents-newest.mjs makes every import load.
test('the @openai/agents loaded is the version this run pins, from its install', (t) => {
  const pins = fs.realpathSync(process.env.SESSIONKEEP_TEST_AGENTS ?? fileURLToPath(new URL('..', import.meta.url)));
  const manifest = JSON.parse(fs.readFileSync(path.join(pins, 'package.json'), 'utf8'));
  const pinned = (manifest.dependencies ?? {})['@openai/agents'] ?? manifest.devDependencies['@openai/agents'];
  const entry = fileURLToPath(import.meta.resolve('@openai/agents'));
  const at = entry.lastIndexOf(`${path.sep}node_modules${path.sep}@openai${path.sep}agents${path.sep}`);
  const installed = entry.slice(0, at);
  const { version } = JSON.parse(fs.readFileSync(path.join(installed, 'node_modules/@openai/agents/package.json'), 'utf8'));
  t.diagnostic(`@openai/agents ${version} from ${installed}`);
  assert.equal(installed, pins);
  assert.equal(version, pinned);
});

/** One item of every kind the SDK persists, with fields sessionkeep does not model. */
const ITEMS = [
  { type: 'message', role: 'system', content: 'You read configs.' },
  { role: 'user', content: [{ type: 'input_text', text: 'What port is in ' }, { type: 'input_image', image: 'https://example.com/c.png', detail: 'low' }, { type: 'input_text', text: 'this?' }] },
  { type: 'reasoning', id: 'rs_1', content: [{ type: 'input_text', text: 'Read it.' }], rawContent: [{ type: 'reasoning_text', text: 'raw' }], providerData: { encrypted_content: 'gAAA', nested: { list: [1, null, 'x'] } } },
  { type: 'function_call', callId: 'call_1', name: 'read_config', arguments: '{"path":"config.json"}', status: 'completed', providerData: { a: 1 } },
  { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { action: { query: 'port' } } },
  { type: 'function_call_result', callId: 'call_1', name: 'read_config', status: 'completed', output: { type: 'text', text: '{"port":8080}' } },
  { type: 'message', role: 'assistant', status: 'completed', id: 'msg_1', content: [{ type: 'output_text', text: 'Port 8080.', annotations: [] }, { type: 'refusal', refusal: ' No more.' }] },
  { type: 'some_future_item', payload: { deep: [{ x: true }] } },
];

test('items round-trip exactly through a store reopened in another process, as natural blocks', async (t) => {
  const { db, store } = tempStore(t);
  const session = new SessionkeepAgentsSession(store.createSession());
  await session.addItems(ITEMS.slice(0, 4));
  await session.addItems(ITEMS.slice(4));
  const id = await session.getSessionId();
  assert.equal(id, session.session.id);

  // What sessionkeep's own views see: the function call paired with its output.
  const messages = session.session.messages();
  assert.deepEqual(messages.map((m) => [m.role, m.content.map((b) => b.type)]), [
    ['user', ['history_start']],
    ['user', ['text', 'text']],
    ['assistant', ['thinking', 'tool_use']],
    ['assistant', ['openai_item']],
    ['user', ['tool_result']],
    ['assistant', ['text', 'openai_item']],
  ]);
  assert.equal(messages[1].content[1].text, 'What port is in this?');
  assert.deepEqual(messages[2].content[1].input, { path: 'config.json' });
  assert.equal(messages[4].content[0].tool_use_id, 'call_1');
  assert.equal(messages[4].content[0].content, '{"port":8080}');
  assert.equal(messages[5].content[0].text, 'Port 8080. No more.');
  store.close();

  assert.deepEqual(await child([db, 'items', id]), ITEMS);
  const reopened = openStore(db);
  t.after(() => reopened.close());
  const again = new SessionkeepAgentsSession(reopened.openSession(id));
  assert.deepEqual(await again.getItems(3), ITEMS.slice(-3));
  assert.deepEqual(await again.getItems(0), []);
  assert.deepEqual(await again.getItems(100), ITEMS);
});

test('popItem and clearSession rewind: the items go, the records stay in the tree', async (t) => {
  const { store } = tempStore(t);
  const session = new SessionkeepAgentsSession(store.createSession());
  assert.equal(await session.popItem(), undefined);
  await session.clearSession();
  await session.addItems(ITEMS.slice(1, 4)); // a user message, then reasoning and a call in one assistant message
  const nodes = () => session.session.tree().nodes.length;
  const before = nodes();

  assert.deepEqual(await session.popItem(), ITEMS[3]);
  assert.deepEqual(await session.getItems(), ITEMS.slice(1, 3));
  assert.deepEqual(session.session.messages().at(-1).content.map((b) => b.type), ['thinking'], 'the reasoning recorded again without the call');
  assert.deepEqual(await session.popItem(), ITEMS[2]);
  assert.deepEqual(await session.popItem(), ITEMS[1]);
  assert.deepEqual(await session.getItems(), []);
  assert.equal(await session.popItem(), undefined);
  assert.ok(nodes() >= before + 1, 'nothing was deleted');

  // An output whose call was popped is kept as an openai_item block, and still round-trips.
  await session.addItems([ITEMS[5]]);
  assert.deepEqual(session.session.messages().at(-1).content.map((b) => b.type), ['openai_item']);
  assert.deepEqual(await session.getItems(), [ITEMS[5]]);

  await session.addItems(ITEMS.slice(6));
  const recorded = nodes();
  await session.clearSession();
  assert.deepEqual(await session.getItems(), []);
  assert.equal(nodes(), recorded);
  await session.addItems([ITEMS[0]]);
  assert.deepEqual(await session.getItems(), [ITEMS[0]]);
});

test('a tool output without text (an image) is the tool_result as JSON', async (t) => {
  const { store } = tempStore(t);
  const session = new SessionkeepAgentsSession(store.createSession());
  const output = { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' };
  const items = [
    { type: 'function_call', callId: 'call_img', name: 'screenshot', arguments: 'not json', status: 'completed' },
    { type: 'function_call_result', callId: 'call_img', name: 'screenshot', status: 'completed', output },
  ];
  await session.addItems(items);
  const [call, result] = session.session.messages().slice(-2);
  assert.deepEqual(call.content[0].input, {}, 'arguments that are not a JSON object');
  assert.equal(result.content[0].content, JSON.stringify(output));
  assert.deepEqual(await session.getItems(), items);
});

test('bad arguments are TypeErrors that change nothing', async (t) => {
  const { store } = tempStore(t);
  assert.throws(() => new SessionkeepAgentsSession({ id: 'x' }), TypeError);
  const session = new SessionkeepAgentsSession(store.createSession());
  await assert.rejects(session.addItems('hello'), TypeError);
  await assert.rejects(session.addItems([null]), TypeError);
  await assert.rejects(session.getItems('3'), TypeError);
  assert.equal(session.session.envelopes().length, 0);
});

test("a Runner run with a scripted model resumes from the session in a new process", async (t) => {
  const { db, store } = tempStore(t);
  store.close();
  const first = await child([db, 'run', 'What port does the config use?']);
  assert.equal(first.finalOutput, 'It uses port 8080.');
  assert.deepEqual(first.items.map((i) => i.type), ['message', 'reasoning', 'function_call', 'function_call_result', 'message']);

  const second = await child([db, 'run', 'And which file was it?', first.sessionId]);
  assert.equal(second.sessionId, first.sessionId);
  // The model's first call in the new process is sent the whole first run, then the new prompt.
  assert.deepEqual(second.inputs[0], [...first.items, { type: 'message', role: 'user', content: 'And which file was it?' }]);
  assert.deepEqual(second.items.slice(0, first.items.length), first.items);
  assert.equal(second.items.length, first.items.length * 2);
  assert.deepEqual(await child([db, 'items', first.sessionId]), second.items);
});
