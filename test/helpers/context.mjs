// Sessions for the context tests, and what every built context must be.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sk } from './common.mjs';

const TOOLS = ['Read', 'Bash', 'Grep', 'Edit'];

/** toolOutput is a tool's output whose size (5 to 125 lines) varies with the turn. */
function toolOutput(turn) {
  const lines = [];
  for (let i = 0; i < 5 + ((turn * 37) % 120); i++) {
    lines.push(`${String(i).padStart(4, '0')}\tfunc handler${i}(w http.ResponseWriter, r *http.Request) { serve(w, r, ${turn}) }`);
  }
  return lines.join('\n');
}

/**
 * conversation returns n messages of a coding session: per turn a prompt, a reply with signed
 * thinking and a tool call, its result, and a closing reply. With interrupted, it ends in a
 * tool call whose result never came, as a crash leaves it.
 */
export function conversation(n, { interrupted = false } = {}) {
  const msgs = [];
  for (let turn = 0; msgs.length < n; turn++) {
    const id = `toolu_${String(turn).padStart(6, '0')}`;
    const tool = TOOLS[turn % TOOLS.length];
    msgs.push(
      { role: 'user', content: `Turn ${turn}: please look at src/module_${turn % 50}.go and fix the failing test` },
      { role: 'assistant', content: [
        { type: 'thinking', thinking: `I should use ${tool} on module ${turn % 50}.`, signature: `sig${turn}` },
        { type: 'text', text: 'Let me check that.' },
        { type: 'tool_use', id, name: tool, input: { file_path: `src/module_${turn % 50}.go` } },
      ] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: toolOutput(turn) }] },
      { role: 'assistant', content: [{ type: 'text', text: `I'll use a table-driven test for module ${turn % 50} instead. Done.` }] },
    );
  }
  msgs.length = n;
  if (interrupted) {
    msgs[n - 1] = { role: 'assistant', content: [
      { type: 'text', text: 'Running the tests now.' },
      { type: 'tool_use', id: 'toolu_interrupted', name: 'Bash', input: { command: 'go test ./...' } },
    ] };
    if (msgs[n - 2].role === 'assistant') msgs[n - 2] = { role: 'user', content: 'Run the tests.' };
  }
  return msgs;
}

/** unanswered returns the ids of the tool calls in messages that no result answers. */
export function unanswered(messages) {
  const calls = new Set();
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') calls.add(b.id);
      if (b.type === 'tool_result') calls.delete(b.tool_use_id);
    }
  }
  return [...calls];
}

/** sessionWith creates a session in store holding messages. */
export function sessionWith(store, messages, options = {}) {
  const s = store.createSession({ provider: 'claude', ...options });
  s.restoreMessages(messages);
  return s;
}

/**
 * checkContext asserts what every context must be: within its budget, valid for its
 * format by validateContext, and no tool call given a synthetic result except `interrupted`.
 */
export function checkContext(ctx, { format = 'anthropic', interrupted = [] } = {}) {
  assert.ok(ctx.tokensUsed <= ctx.tokenBudget, `${ctx.strategy}: ${ctx.tokensUsed} tokens over a budget of ${ctx.tokenBudget}`);
  assert.equal(ctx.format, format, 'the context says the format it is in');
  assert.equal(ctx.debug.format, format, 'and so does its report');
  const v = sk.validateContext(ctx.messages, format);
  assert.deepEqual(v.problems, [], `${ctx.strategy} context for ${format} is not valid`);
  assert.equal(v.valid, true);
  const synthetic = ctx.debug.repairs.filter((r) => r.kind === 'synthetic_result').map((r) => r.toolUseId);
  for (const id of synthetic) assert.ok(interrupted.includes(id), `${id} got a synthetic result though its result is stored`);
  assert.ok(ctx.includedMessageCount + ctx.summarizedMessageCount <= ctx.originalMessageCount);
}

/** recordingSummarizer is a summarizer that records its calls and summarizes by extraction. */
export function recordingSummarizer() {
  const calls = [];
  const summarize = async (messages, targetTokens) => {
    calls.push({ messages, targetTokens });
    const prompts = messages.filter((m) => m.role === 'user')
      .flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text.split('\n')[0].slice(0, 80)));
    return `Summary of ${messages.length} messages. The user asked: ${prompts.slice(-5).join(' | ')}`;
  };
  return { calls, summarize };
}

/** The real Claude Code transcripts beside the project. */
export const REAL = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'fixtures', 'real', 'claude_code');

/** transcriptMessages returns the API messages of a transcript's user and assistant records. */
export function transcriptMessages(file) {
  return fs.readFileSync(file, 'utf8').split('\n')
    .filter((line) => line.trim() && !line.startsWith('//'))
    .map((line) => JSON.parse(line))
    .filter((r) => (r.type === 'user' || r.type === 'assistant') && r.message && r.message.content !== undefined)
    .map((r) => r.message);
}
