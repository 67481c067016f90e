// Sessions imported with store.import() — the real Claude Code transcripts (with their
// subagent transcripts, summaries and one-record-per-block replies) and Codex CLI rollouts
// (reasoning items, function calls) — give contexts that fit and are valid for Anthropic and
// OpenAI at budgets of 8K, 32K and 200K tokens, their records counted lazily on first build.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { tempStore } from './helpers/common.mjs';
import { checkContext, REAL } from './helpers/context.mjs';

const CODEX = path.join(REAL, '..', 'codex');

/** unansweredIn returns the tool calls of a session's conversation that no result answers. */
function unansweredIn(session) {
  const calls = new Set();
  for (const m of session.messages()) {
    for (const b of m.content) {
      if (b.type === 'tool_use') calls.add(b.id);
      if (b.type === 'tool_result') calls.delete(b.tool_use_id);
    }
  }
  return [...calls];
}

for (const [name, dir] of [['Claude Code', REAL], ['Codex CLI', CODEX]]) {
  test(`imported ${name} sessions give valid contexts at 8K, 32K and 200K`, { timeout: 120_000 }, async (t) => {
    const { store } = tempStore(t);
    const result = await store.import(dir);
    assert.ok(result.sessions.length >= (name === 'Codex CLI' ? 2 : 5), JSON.stringify(result.sessions.length));
    let built = 0;
    for (const id of result.sessions) {
      const s = store.openSession(id);
      if (s.messages().length === 0) continue;
      const interrupted = unansweredIn(s);
      for (const contextWindow of [8_000, 32_000, 200_000]) {
        for (const format of ['anthropic', 'openai']) {
          const ctx = await s.buildContextAsync({ contextWindow, format });
          checkContext(ctx, { format, interrupted });
          assert.ok(!JSON.stringify(ctx.messages).includes('"type":"reasoning"'));
          built++;
        }
      }
    }
    assert.ok(built >= 12);
  });
}
