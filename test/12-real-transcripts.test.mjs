// Real Claude Code transcripts written by other projects (../shared/fixtures/real/claude_code,
// 1.0.x to 2.1.x): every message in them goes through restoreMessages and comes back from a
// freshly opened store exactly as it was, block for block and field for field.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, tempDir } from './helpers/common.mjs';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'fixtures', 'real', 'claude_code');

/** transcriptMessages returns the API messages of a transcript's user and assistant records. */
function transcriptMessages(file) {
  return fs.readFileSync(file, 'utf8').split('\n')
    .filter((line) => line.trim() && !line.startsWith('//'))
    .map((line) => JSON.parse(line))
    .filter((r) => (r.type === 'user' || r.type === 'assistant') && r.message && r.message.content !== undefined)
    .map((r) => r.message);
}

/** normalized is a message as messages() gives it back: string content is one text block. */
function normalized(m) {
  return typeof m.content === 'string' ? { ...m, content: [{ type: 'text', text: m.content }] } : m;
}

/** census counts what a resume must not lose: tool calls, results and errors, signed thinking, images. */
function census(messages) {
  const n = { tool_use: 0, tool_result: 0, is_error: 0, signed_thinking: 0, image: 0, blocks: 0 };
  for (const m of messages) {
    for (const b of m.content) {
      n.blocks++;
      if (b.type === 'tool_use') n.tool_use++;
      if (b.type === 'tool_result') n.tool_result++;
      if (b.type === 'tool_result' && b.is_error) n.is_error++;
      if (b.type === 'thinking' && b.signature) n.signed_thinking++;
      if (b.type === 'image') n.image++;
    }
  }
  return n;
}

const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl')).sort();

test('the real transcripts are there', () => {
  assert.ok(files.length >= 18, `found ${files.length} transcripts in ${FIXTURES}`);
});

for (const name of files) {
  test(`restore round-trips ${name.slice(0, 70)}`, (t) => {
    const messages = transcriptMessages(path.join(FIXTURES, name));
    assert.ok(messages.length > 0);
    const db = path.join(tempDir(t), 'real.db');
    let store = openStore(db);
    const id = store.createSession({ projectPath: '/real' }).id;
    store.openSession(id).restoreMessages(messages);
    store.close();

    store = openStore(db);
    const back = store.openSession(id).messages();
    store.close();
    const expected = messages.map(normalized);
    assert.deepStrictEqual(census(back), census(expected));
    assert.deepStrictEqual(back, expected);
  });
}
