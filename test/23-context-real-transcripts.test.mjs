// Real Claude Code transcripts written by other projects, replayed through restoreMessages
// as test/12-real-transcripts does, give contexts that fit and are valid for Anthropic and
// OpenAI at budgets of 8K, 32K and 200K tokens. Their damage is real: one record per block,
// empty text blocks, subagent messages interleaved with results that come late.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempStore } from './helpers/common.mjs';
import { checkContext, REAL, transcriptMessages, unanswered } from './helpers/context.mjs';

const files = fs.readdirSync(REAL).filter((f) => f.endsWith('.jsonl')).sort();

/** signedThinking returns the JSON of every signed thinking block in messages. */
function signedThinking(messages) {
  return messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'thinking' && b.signature).map((b) => JSON.stringify(b));
}

test('the real transcripts are there', () => {
  assert.ok(files.length >= 18, `found ${files.length} transcripts in ${REAL}`);
});

for (const name of files) {
  test(`valid contexts at 8K, 32K and 200K: ${name.slice(0, 70)}`, (t) => {
    const messages = transcriptMessages(path.join(REAL, name));
    const { store } = tempStore(t);
    const s = store.createSession({ provider: 'claude' });
    s.restoreMessages(messages);
    const stored = new Set(signedThinking(s.messages()));
    const interrupted = unanswered(messages);
    for (const contextWindow of [8_000, 32_000, 200_000]) {
      for (const format of ['anthropic', 'openai']) {
        const ctx = s.buildContext({ contextWindow, format, systemPrompt: 'You are Claude Code.' });
        checkContext(ctx, { format, interrupted });
        if (format === 'anthropic') {
          for (const b of signedThinking(ctx.messages)) assert.ok(stored.has(b), 'a thinking block was changed');
        }
      }
    }
  });
}

test("the last assistant turn's signed thinking is passed back unmodified", (t) => {
  let checked = 0;
  for (const name of files) {
    const messages = transcriptMessages(path.join(REAL, name));
    const lastPrompt = messages.findLastIndex((m) => m.role === 'user' && (typeof m.content === 'string' || m.content.some((b) => b.type === 'text')));
    const wanted = signedThinking(messages.slice(lastPrompt + 1).filter((m) => m.role === 'assistant'));
    if (wanted.length === 0) continue;
    const { store } = tempStore(t);
    const s = store.createSession({ provider: 'claude' });
    s.restoreMessages(messages);
    const sent = new Set(signedThinking(s.buildContext({ contextWindow: 200_000 }).messages));
    for (const b of wanted) assert.ok(sent.has(b), `${name}: a signed thinking block of the last turn is missing or changed`);
    checked++;
  }
  assert.ok(checked >= 1, 'no transcript ends in a turn with signed thinking');
});
