// Crash: a process killed mid-stream loses at most the last few milliseconds, and what it
// left unfinished comes back marked interrupted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openStore, tempDir, helper, killAfterFirstLine, UUID_V7 } from './helpers/common.mjs';

/**
 * crashChild runs crash-child.mjs, waits for the line it prints when it has ingested
 * everything, and SIGKILLs it.
 */
function crashChild(db, variant) {
  return killAfterFirstLine(helper('crash-child.mjs'), [db, variant]);
}

const PROMPT = { role: 'user', content: [{ type: 'text', text: 'List the files and count them' }] };
const FIRST_ANSWER = {
  role: 'assistant',
  id: 'msg_crash_1',
  model: 'claude-sonnet-4-5',
  content: [
    { type: 'text', text: 'Let me look.' },
    { type: 'tool_use', id: 'toolu_ls', name: 'bash', input: { command: 'ls' } },
  ],
};
const RESULT = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ls', content: 'a.txt\nb.txt', is_error: false }] };

test('SIGKILL mid-stream: tool_use and tool_result survive, streamed text comes back interrupted', async (t) => {
  const db = path.join(tempDir(t), 'crash.db');
  const child = await crashChild(db, 'text');
  assert.equal(child.signal, 'SIGKILL');
  assert.match(child.id, UUID_V7);

  const store = openStore(db);
  t.after(() => store.close());
  const [info] = store.listSessions();
  assert.equal(info.id, child.id);
  assert.equal(info.status, 'interrupted');
  assert.equal(info.messageCount, 4);
  assert.equal(info.title, 'List the files and count them');

  const s = store.openSession(child.id);
  assert.deepEqual(s.messages(), [
    PROMPT,
    FIRST_ANSWER,
    RESULT,
    { role: 'assistant', content: [{ type: 'text', text: 'There are two files: a.txt and b.txt → ✓' }] },
  ]);
  const env = s.envelopes();
  assert.deepEqual(env.map((e) => [e.type, e.status]), [
    ['user', 'complete'], ['assistant', 'complete'], ['tool_result', 'complete'], ['assistant', 'interrupted'],
  ]);
  assert.deepEqual(env[2].toolUseResults, { toolu_ls: { stdout: 'a.txt\nb.txt\n', exitCode: 0 } });
  assert.deepEqual(s.turns(), [{ index: 0, startIndex: 0, endIndex: 3 }]);

  // The session goes on after the crash: the next message hangs off the interrupted one.
  const next = s.appendUserMessage('go on');
  assert.equal(next.parentUuid, env[3].uuid);
  assert.equal(next.turn, 1);
  assert.equal(store.listSessions()[0].status, 'active');
});

test('SIGKILL while tool_use input streams: the partial input is kept as raw_input', async (t) => {
  const db = path.join(tempDir(t), 'crash.db');
  const child = await crashChild(db, 'tool_input');
  assert.equal(child.signal, 'SIGKILL');

  const store = openStore(db);
  t.after(() => store.close());
  assert.equal(store.listSessions()[0].status, 'interrupted');
  const s = store.openSession(child.id);
  const messages = s.messages();
  assert.deepEqual(messages.slice(0, 3), [PROMPT, FIRST_ANSWER, RESULT]);
  assert.deepEqual(messages[3], {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Counting now.' },
      {
        type: 'tool_use',
        id: 'toolu_wc',
        name: 'bash',
        input: {},
        raw_input: '{"command": "ls | wc',
        input_error: 'streamed input is not valid JSON',
      },
    ],
  });
  assert.equal(s.envelopes()[3].status, 'interrupted');
});
