// The example agent's parts, run for real: its tools on a real folder, its turn loop with the
// scripted model on a real session, its command line, and the request it would send to the
// Anthropic API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, tempStore, runNode } from './helpers/common.mjs';

const dist = (name) => import(`../examples/agent-modal/dist/${name}.js`);
const { runTool } = await dist('tools');
const { parseArgs } = await dist('args');
const { runTurn } = await dist('agent');
const { scriptedModel } = await dist('scripted-model');
const { toRequest } = await dist('anthropic-model');

/** folder makes a small project: two files, a subfolder, a binary file. */
function folder(t) {
  const root = path.join(tempDir(t, 'sessionkeep-tools-'), 'proj');
  fs.mkdirSync(path.join(root, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(root, 'notes.txt'), 'port: 8080\nhost: localhost\n');
  fs.writeFileSync(path.join(root, 'lib', 'a.js'), 'const port = 1;\n// TODO tidy\n');
  fs.writeFileSync(path.join(root, 'blob.bin'), Buffer.from([1, 0, 2]));
  return root;
}

test('the tools list, read and grep inside the project folder, with an execution record', async (t) => {
  const root = folder(t);
  const list = await runTool(root, 'list_dir', {});
  assert.equal(list.content, 'blob.bin\nlib/\nnotes.txt');
  assert.equal(list.isError, false);
  assert.deepEqual(Object.keys(list.raw).sort(), ['durationMs', 'exitCode', 'interrupted', 'isImage', 'stderr', 'stdout']);
  assert.equal(list.raw.stdout, list.content);
  assert.equal(list.raw.exitCode, 0);
  assert.equal((await runTool(root, 'list_dir', { path: 'lib' })).content, 'a.js');
  assert.equal((await runTool(root, 'read_file', { path: 'notes.txt' })).content, 'port: 8080\nhost: localhost\n');
  assert.equal((await runTool(root, 'grep', { pattern: 'port' })).content, 'lib/a.js:1: const port = 1;\nnotes.txt:1: port: 8080');
  assert.equal((await runTool(root, 'grep', { pattern: '^host', path: 'notes.txt' })).content, 'notes.txt:2: host: localhost');
  assert.equal((await runTool(root, 'grep', { pattern: 'nowhere' })).content, 'no matches');
});

test('the tools refuse paths out of the project, binary files and bad input, as error results', async (t) => {
  const root = folder(t);
  fs.symlinkSync('/etc', path.join(root, 'escape'));
  const refused = async (name, input, message) => {
    const r = await runTool(root, name, input);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(input)}`);
    assert.match(r.content, message);
    assert.equal(r.raw.exitCode, 1);
    assert.equal(r.raw.stderr, r.content);
  };
  await refused('read_file', { path: '../outside.txt' }, /no such file|outside the project/);
  await refused('read_file', { path: '/etc/hostname' }, /outside the project folder/);
  await refused('list_dir', { path: 'escape' }, /outside the project folder/);
  await refused('read_file', { path: 'escape/hostname' }, /outside the project folder/);
  await refused('read_file', { path: 'blob.bin' }, /not a text file/);
  await refused('read_file', { path: 'lib' }, /is a folder/);
  await refused('read_file', {}, /missing "path"/);
  await refused('grep', { pattern: '(' }, /not a valid regular expression/);
  await refused('rm_rf', { path: '.' }, /unknown tool "rm_rf"/);
  await refused('read_file', 'not an object', /missing "path"/);
});

test('a turn with the scripted model: three real tool calls, each result recorded, then the answer', async (t) => {
  const root = folder(t);
  const { store } = tempStore(t);
  const session = store.createSession({ projectPath: root });
  session.appendUserMessage('have a look at notes.txt and find "localhost"');
  const contexts = [];
  await runTurn(session, scriptedModel(root, 0), root, { signal: new AbortController().signal, onContext: (c) => contexts.push(c) });

  const messages = session.messages();
  assert.deepEqual(messages.map((m) => [m.role, m.content.map((b) => b.type).join('+'), m.stop_reason ?? '']), [
    ['user', 'text', ''],
    ['assistant', 'text+tool_use', 'tool_use'],
    ['user', 'tool_result', ''],
    ['assistant', 'text+tool_use', 'tool_use'],
    ['user', 'tool_result', ''],
    ['assistant', 'text+tool_use', 'tool_use'],
    ['user', 'tool_result', ''],
    ['assistant', 'text', 'end_turn'],
  ]);
  const calls = messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_use').map((b) => [b.name, b.input]));
  assert.deepEqual(calls, [['list_dir', { path: '.' }], ['read_file', { path: 'notes.txt' }], ['grep', { pattern: 'localhost', path: '.' }]]);
  assert.equal(messages[4].content[0].content, 'port: 8080\nhost: localhost\n');
  assert.equal(messages[6].content[0].content, 'notes.txt:2: host: localhost');
  assert.match(messages[7].content[0].text, /"localhost" is on 1 line in 1 file, first notes\.txt:2: host: localhost/);
  assert.match(messages[7].content[0].text, /made 3 tool calls so far \(list_dir ×1, read_file ×1, grep ×1\)\.$/);
  assert.equal(session.envelopes()[4].toolUseResults[messages[3].content[1].id].stdout, 'port: 8080\nhost: localhost\n');
  assert.ok(session.tokenTracker().outputTokens > 0);
  // Each reply was sent the context built for it: the whole conversation so far, every tool
  // call answered by its real result (the results' message ended before the next build).
  assert.deepEqual(contexts.map((c) => [c.strategy, c.messages.length]), [['full-history', 1], ['full-history', 3], ['full-history', 5], ['full-history', 7]]);
  assert.deepEqual(contexts[3].messages[6].content, messages[6].content.map(({ type, tool_use_id, content, is_error }) => ({ type, tool_use_id, content, is_error })));
  assert.deepEqual(contexts[3].debug.repairs, []);

  // Deterministic: the same prompt in the same folder gives the same conversation.
  const again = store.createSession({ projectPath: root });
  again.appendUserMessage('have a look at notes.txt and find "localhost"');
  await runTurn(again, scriptedModel(root, 0), root, { signal: new AbortController().signal });
  assert.deepEqual(again.messages(), messages);
});

test('an aborted turn stops where it is; the reply cut off stays open for the next prompt to end', async (t) => {
  const root = folder(t);
  const { store } = tempStore(t);
  const session = store.createSession({ projectPath: root });
  session.appendUserMessage('look around');
  const stop = new AbortController();
  const turn = runTurn(session, scriptedModel(root, 20), root, { signal: stop.signal });
  setTimeout(() => stop.abort(new Error('stopped by the test')), 70);
  await assert.rejects(turn, /stopped by the test/);
  const [, reply] = session.envelopes();
  assert.equal(reply.status, 'streaming');
  assert.ok(reply.message.content[0].text.length > 0);
  session.appendUserMessage('go on');
  assert.equal(session.envelopes()[1].status, 'interrupted');
});

test('the command line: the resume flags as parseResumeArgs reads them, then --db and --help', () => {
  assert.deepEqual(parseArgs([]), { request: { mode: 'default' }, help: false });
  assert.deepEqual(parseArgs(['-c']), { request: { mode: 'continue' }, help: false });
  assert.deepEqual(parseArgs(['--resume']), { request: { mode: 'resume' }, help: false });
  assert.deepEqual(parseArgs(['-r', '01a1fd', '--db', '/tmp/x.db']), { request: { mode: 'resume', id: '01a1fd' }, db: '/tmp/x.db', help: false });
  assert.deepEqual(parseArgs(['--db', 'x.db', '--resume']), { request: { mode: 'resume' }, db: 'x.db', help: false });
  assert.deepEqual(parseArgs(['--new', '-h']), { request: { mode: 'new' }, help: true });
  assert.throws(() => parseArgs(['--continue', '--new']), /give only one of --continue, --resume and --new/);
  assert.throws(() => parseArgs(['--db']), /--db needs a path/);
  assert.throws(() => parseArgs(['--frobnicate']), /unknown argument "--frobnicate"/);
});

test('the program: --help, a bad argument, and no terminal to read keys from', async (t) => {
  const main = new URL('../examples/agent-modal/dist/main.js', import.meta.url).pathname;
  const env = { ...process.env, SESSIONKEEP_DB: path.join(tempDir(t), 'sessions.db') };
  const help = await runNode(main, ['--help'], { env });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: agent-modal \[--continue \| --resume \[id\] \| --new\]/);
  const bad = await runNode(main, ['--bogus'], { env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /agent-modal: unknown argument "--bogus"\n\nUsage:/);
  const piped = await runNode(main, [], { env }); // runNode gives the child no terminal
  assert.equal(piped.code, 2);
  assert.match(piped.stderr, /stdin is not a TTY/);
  assert.equal(fs.existsSync(env.SESSIONKEEP_DB), false, 'nothing was opened');
});

test('the request to the Anthropic API: stored fields dropped, unsigned thinking dropped, unanswered tool calls answered as interrupted', () => {
  const conversation = [
    { role: 'user', content: [{ type: 'text', text: 'read it' }] },
    {
      role: 'assistant', id: 'msg_1', model: 'claude', stop_reason: 'tool_use', usage: { input_tokens: 1 },
      content: [
        { type: 'thinking', thinking: 'no signature came' },
        { type: 'thinking', thinking: 'signed', signature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {}, raw_input: '{"path": "a', input_error: 'streamed input is not valid JSON' },
        { type: 'tool_use', id: 'toolu_2', name: 'grep', input: { pattern: 'x' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'no matches', is_error: false }] },
    { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
    { role: 'assistant', content: [] },
    { role: 'user', content: [{ type: 'text', text: 'hello?' }] },
  ];
  assert.deepEqual(toRequest(conversation), [
    { role: 'user', content: [{ type: 'text', text: 'read it' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'signed', signature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} },
        { type: 'tool_use', id: 'toolu_2', name: 'grep', input: { pattern: 'x' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'interrupted: the agent stopped before this tool finished' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no matches', is_error: false },
        { type: 'text', text: 'and now?' },
        { type: 'text', text: 'hello?' },
      ],
    },
  ]);
});

test('with ANTHROPIC_API_KEY, a turn with Claude through the SDK records its tool calls and results', {
  skip: process.env.ANTHROPIC_API_KEY ? false : 'needs ANTHROPIC_API_KEY (the real API)',
  timeout: 120_000,
}, async (t) => {
  const { anthropicModel } = await dist('anthropic-model');
  const root = folder(t);
  const { store } = tempStore(t);
  const session = store.createSession({ projectPath: root });
  session.appendUserMessage('Use the list_dir tool on "." once, then tell me how many entries the folder has.');
  await runTurn(session, await anthropicModel(process.env.ANTHROPIC_API_KEY, root), root, { signal: new AbortController().signal });
  const envelopes = session.envelopes();
  const call = envelopes.flatMap((e) => e.message.content).find((b) => b.type === 'tool_use' && b.name === 'list_dir');
  assert.ok(call, 'Claude called list_dir');
  const answered = envelopes.find((e) => e.type === 'tool_result' && e.message.content.some((b) => b.tool_use_id === call.id));
  assert.equal(answered.message.content[0].content, 'blob.bin\nlib/\nnotes.txt');
  const last = envelopes.at(-1);
  assert.deepEqual([last.type, last.status, last.message.stop_reason], ['assistant', 'complete', 'end_turn']);
  assert.match(last.requestId, /^req_/);
  assert.ok(session.tokenTracker().inputTokens > 0);
});
