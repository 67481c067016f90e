// recent-turns: a long session with no summary, over its budget even with tool outputs
// pruned, sends the session state (with the original task) and as many of its latest whole
// turns as fit, at least half of the budget and valid for Anthropic and OpenAI; the report
// says what was left out and why. With a summary that no longer reaches the recent turns,
// recent-plus-summary fills the budget with recent turns the same way, and
// buildContextAsync with a summarizer makes a newer summary.
import test from 'node:test';
import assert from 'node:assert/strict';
import { tempStore, sk } from './helpers/common.mjs';
import { checkContext, recordingSummarizer, sessionWith, unanswered } from './helpers/context.mjs';

const WINDOWS = [8_000, 32_000, 200_000, 1_000_000];

/**
 * agentSession returns n messages as a coding agent records them: a prompt, then one to four
 * steps of signed thinking, a sentence and tool calls (one or two at once: file reads of 20 to
 * 200 lines, shell and test output, searches, edits whose input carries the new text; some
 * failing), each answered by its results, then a closing reply.
 */
function agentSession(n) {
  const msgs = [];
  for (let turn = 0; msgs.length < n; turn++) {
    msgs.push({ role: 'user', content: turn === 0
      ? 'Add rate limiting to the HTTP API in server/: a token bucket per client, configurable, with tests.'
      : `Turn ${turn}: ${['now handle', 'also check', 'fix the failure in', 'refactor'][turn % 4]} server/handler_${turn % 40}.go` });
    for (let step = 0; step <= turn % 4 && msgs.length < n; step++) {
      const calls = Array.from({ length: 1 + ((turn + step) % 5 === 0) }, (_, k) => toolCall(turn, step, k));
      msgs.push({ role: 'assistant', content: [
        { type: 'thinking', thinking: `Step ${step} of turn ${turn}: ${'I need to look at how the limiter is wired. '.repeat(1 + step)}`, signature: `sig-${turn}-${step}` },
        { type: 'text', text: `Let me ${calls.map((c) => c.name).join(' and ')} for turn ${turn}.` },
        ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
      ] });
      msgs.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: c.output, ...(c.error ? { is_error: true } : {}) })) });
    }
    msgs.push({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done: I'll keep the bucket size in config.go instead of a constant. Tests pass.` }] });
  }
  msgs.length = n;
  if (msgs.at(-1).content.some?.((b) => b.type === 'tool_use')) msgs[n - 1] = { role: 'assistant', content: [{ type: 'text', text: 'Stopping here.' }] };
  return msgs;
}

function toolCall(turn, step, k) {
  const id = `toolu_${turn}_${step}_${k}`;
  const file = `server/handler_${(turn + k) % 40}.go`;
  const lines = (count, f) => Array.from({ length: count }, (_, i) => f(i)).join('\n');
  switch ((turn + step + k) % 4) {
    case 0: return { id, name: 'Read', input: { file_path: file },
      output: lines(20 + ((turn * 53) % 180), (i) => `${String(i + 1).padStart(5)}\tfunc (h *Handler${i}) Serve(w http.ResponseWriter, r *http.Request) {`) };
    case 1: return { id, name: 'Bash', input: { command: 'go test ./server/...' }, error: turn % 7 === 0,
      output: lines(10 + ((turn * 17) % 50), (i) => `=== RUN   TestLimiter/case_${i}\n--- ${i % 11 === 0 ? 'FAIL' : 'PASS'}: TestLimiter/case_${i} (0.0${i % 10}s)`) };
    case 2: return { id, name: 'Grep', input: { pattern: 'limit', path: 'server' },
      output: lines(5 + ((turn * 13) % 60), (i) => `server/handler_${i % 40}.go:${10 + i}:\tif !h.bucket.Allow() { http.Error(w, "rate limited", 429) }`) };
    default: return { id, name: 'Edit', input: { file_path: file, old_string: 'h.limit(w, r)', new_string: `h.limit(w, r)\n${'\t// keep the token bucket per client\n'.repeat(20 + (turn % 30))}` },
      output: `The file ${file} has been updated.` };
  }
}

test('a 2,000-message session with no summary fills its budget with the latest whole turns', { timeout: 120_000 }, (t) => {
  const { store } = tempStore(t);
  const messages = agentSession(2000);
  const s = sessionWith(store, messages);
  const figures = [];
  for (const format of ['anthropic', 'openai']) {
    for (const contextWindow of WINDOWS) {
      const ctx = s.buildContext({ contextWindow, format, systemPrompt: 'You are a coding agent.' });
      checkContext(ctx, { format });
      for (const other of ['anthropic', 'openai']) {
        if (other !== format) continue;
        assert.deepEqual(sk.validateContext(ctx.messages, other).problems, []);
      }
      const share = ctx.tokensUsed / ctx.tokenBudget;
      figures.push(`${format} ${contextWindow.toLocaleString('en')}: ${ctx.strategy}, ${ctx.messages.length} messages, ` +
        `${ctx.tokensUsed.toLocaleString('en')} of ${ctx.tokenBudget.toLocaleString('en')} tokens (${(100 * share).toFixed(1)}%), ` +
        `${ctx.debug.omitted.messageCount} messages left out`);
      assert.ok(share >= 0.5, `${format} ${contextWindow}: ${ctx.strategy} sends ${(100 * share).toFixed(1)}% of the budget`);
      if (contextWindow === 200_000) {
        assert.equal(ctx.strategy, 'recent-turns');
        const o = ctx.debug.omitted;
        assert.equal(o.fromSeq, 0);
        assert.equal(o.messageCount + ctx.includedMessageCount, 2000, 'every message is sent or counted as left out');
        assert.ok(o.turnCount > 0 && o.tokens > ctx.tokenBudget, `omitted ${JSON.stringify(o)}`);
        assert.match(o.reason, /session state/);
        assert.match(ctx.debug.text, /Left out: messages 0-[\d,]+ \([\d,]+ messages, [\d,]+ whole turns, [\d,]+ tokens\)/);
        assert.match(ctx.debug.text, /skipped pruned-tools: does not fit \(needs [\d,]+ tokens\)/);
      }
    }
  }
  for (const f of figures) t.diagnostic(f);
});

test('recent-turns opens with the state and the original task, then whole turns to the last message', (t) => {
  const { store } = tempStore(t);
  const messages = agentSession(2000);
  const s = sessionWith(store, messages);
  const ctx = s.buildContext({ contextWindow: 200_000 });
  assert.equal(ctx.strategy, 'recent-turns');
  const [opening, ...rest] = ctx.messages;
  assert.equal(opening.role, 'user');
  assert.match(opening.content[0].text, /^You are continuing a session[\s\S]*ORIGINAL TASK: Add rate limiting to the HTTP API/);
  // The first turn kept starts at its prompt, which joins the state's message.
  const firstKept = messages[ctx.debug.omitted.toSeq + 1];
  assert.equal(typeof firstKept.content, 'string', 'the first message kept is a prompt');
  assert.equal(opening.content[1].text, firstKept.content);
  assert.deepEqual(rest.at(-1), { role: 'assistant', content: messages.at(-1).content });
  // Whole turns: every tool call sent has its own stored result, none synthetic.
  assert.deepEqual(unanswered(ctx.messages), []);
  assert.equal(ctx.debug.repairs.filter((r) => r.kind === 'synthetic_result' || r.kind === 'dropped_orphan_result').length, 0);
  // The turns before the last three have their tool outputs pruned and thinking dropped.
  assert.ok(ctx.debug.prunedMessageCount > 0);
  const kept = messages.slice(-ctx.includedMessageCount);
  const prompts = kept.flatMap((m, i) => typeof m.content === 'string' ? [i] : []);
  const thinking = (msgs) => msgs.flatMap((m) => Array.isArray(m.content) ? m.content : []).filter((b) => b.type === 'thinking').length;
  assert.ok(thinking(kept.slice(prompts.at(-3))) > 0);
  assert.equal(thinking(ctx.messages), thinking(kept.slice(prompts.at(-3))));
});

test('a stale summary is followed by as many recent turns as fit, and a summarizer makes a newer one', async (t) => {
  const { store } = tempStore(t);
  const s = sessionWith(store, agentSession(2000));
  const z = recordingSummarizer();
  // A summary made for a 200K window leaves more recent messages after it than 32K holds.
  const large = await s.buildContextAsync({ contextWindow: 200_000, summarize: z.summarize, autoCompact: false });
  assert.equal(large.strategy, 'recent-plus-summary');
  assert.equal(large.debug.omitted.messageCount, 0);
  const calls = z.calls.length;
  assert.ok(calls > 0);

  const stale = s.buildContext({ contextWindow: 32_000 });
  checkContext(stale);
  assert.equal(stale.strategy, 'recent-plus-summary');
  // The latest summary cached (the 200K build kept the earliest that fit it).
  assert.ok(stale.debug.summary.toSeq >= large.debug.summary.toSeq);
  const o = stale.debug.omitted;
  assert.equal(o.fromSeq, stale.debug.summary.toSeq + 1, 'what is left out starts after the summary');
  assert.ok(o.messageCount > 0 && o.turnCount > 0);
  assert.match(o.reason, /newer summary/);
  assert.ok(stale.tokensUsed >= stale.tokenBudget / 2, `${stale.tokensUsed} of ${stale.tokenBudget}`);
  assert.equal(o.messageCount + stale.includedMessageCount + stale.summarizedMessageCount, 2000, 'every message is sent, summarized or left out');

  const fresh = await s.buildContextAsync({ contextWindow: 32_000, summarize: z.summarize, autoCompact: false });
  checkContext(fresh);
  assert.ok(z.calls.length > calls, 'a newer summary was made');
  assert.equal(fresh.strategy, 'recent-plus-summary');
  assert.ok(fresh.debug.summary.toSeq > stale.debug.summary.toSeq);
  assert.equal(fresh.debug.omitted.messageCount, 0);
  assert.equal(fresh.debug.omitted.fromSeq, -1);
});
