import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Block, Message, Session, StreamChunk, ToolResultBlock, ToolUseBlock } from 'sessionkeep';
import type { Model } from './model.js';

/**
 * scriptedModel plays the assistant without a network, deterministically: for each prompt it
 * lists the folder, reads a file (one the prompt names, else README.md, package.json, … or
 * the first file listed), greps for the prompt's quoted text (else TODO), and then answers
 * from the tool results it finds in the conversation — so after a resume its answer counts
 * the tool calls of earlier runs too, which only works if they were restored.
 *
 * It streams like the API: a message_start, text a word at a time, the tool input as JSON
 * fragments, and a done with usage estimated at four characters a token.
 */
export function scriptedModel(root: string, delayMs: number): Model {
  return {
    label: 'scripted model (offline)',
    provider: 'scripted',
    model: 'scripted-1',
    contextWindow: windowFromEnv(),
    async reply(conversation, session, signal) {
      const step = nextStep(conversation, root);
      const chunks = streamOf(step, conversation);
      for (const chunk of chunks) {
        signal.throwIfAborted();
        session.ingest(chunk);
        // An abort during the pause ends the reply with the abort's reason, as between chunks.
        if (delayMs > 0) await sleep(delayMs).then(() => signal.throwIfAborted());
      }
    },
    // A summarizer is given API-shaped messages, where content may be a plain string.
    summarize: async (messages) => summaryOf((messages as { role: Message['role']; content: string | Block[] }[])
      .map((m) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }))),
  };
}

const DEFAULT_WINDOW = 32_768;

/** windowFromEnv is $AGENT_MODAL_CONTEXT_WINDOW, a small window to see compaction soon, else 32K. */
function windowFromEnv(): number {
  const n = Number(process.env.AGENT_MODAL_CONTEXT_WINDOW);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_WINDOW;
}

/**
 * summaryOf is the scripted model's summary: the prompts asked and the tools called in the
 * messages given, written out plainly, so that a compaction works offline and can be checked.
 */
function summaryOf(messages: Message[]): string {
  const prompts = messages.filter(isPrompt).map((m) => textOf(m.content).split('\n')[0]).filter(Boolean);
  const runs = toolRuns(messages);
  const byName = new Map<string, number>();
  for (const r of runs) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
  const tools = [...byName].map(([name, n]) => `${name} ×${n}`).join(', ');
  return `Earlier in this conversation (${messages.length} messages) the user asked: ${prompts.map((p) => `"${p}"`).join('; ') || 'nothing yet'}.`
    + (runs.length ? ` The assistant made ${runs.length} tool calls (${tools}).` : '');
}

interface Step {
  text: string;
  call?: { name: string; input: Record<string, string> };
}

interface ToolRun {
  name: string;
  input: Record<string, unknown>;
  content: string;
  isError: boolean;
}

const PREFERRED_FILES = ['README.md', 'package.json', 'go.mod', 'Makefile', 'pyproject.toml', 'Cargo.toml'];

/** nextStep decides what to do next in the current turn from the tool calls made in it so far. */
function nextStep(conversation: Message[], root: string): Step {
  const { prompt, runs } = currentTurn(conversation);
  const ran = (name: string) => runs.find((r) => r.name === name);
  const listing = ran('list_dir');
  if (!listing) return { text: 'I\'ll start by looking at what is in this folder.', call: { name: 'list_dir', input: { path: '.' } } };
  const file = !ran('read_file') && fileToRead(prompt, listing);
  if (file) return { text: `Let me read ${file}.`, call: { name: 'read_file', input: { path: file } } };
  if (!ran('grep')) {
    const pattern = quoted(prompt) ?? 'TODO';
    return { text: `Now let me search the folder for "${pattern}".`, call: { name: 'grep', input: { pattern, path: '.' } } };
  }
  return { text: answer(conversation, runs, root) };
}

/** currentTurn finds the last prompt and the tool calls made (and answered) since. */
function currentTurn(conversation: Message[]): { prompt: string; runs: ToolRun[] } {
  let start = conversation.length - 1;
  while (start >= 0 && !isPrompt(conversation[start])) start--;
  const prompt = start >= 0 ? textOf(conversation[start].content) : '';
  return { prompt, runs: toolRuns(conversation.slice(start + 1)) };
}

function isPrompt(m: Message): boolean {
  return m.role === 'user' && !m.content.some((b) => b.type === 'tool_result');
}

function toolRuns(messages: Message[]): ToolRun[] {
  const results = new Map<string, ToolResultBlock>();
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') results.set((b as ToolResultBlock).tool_use_id, b as ToolResultBlock);
  const runs: ToolRun[] = [];
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type !== 'tool_use') continue;
      const use = b as ToolUseBlock;
      const result = results.get(use.id);
      runs.push({
        name: use.name,
        input: (use.input ?? {}) as Record<string, unknown>,
        content: result ? contentText(result.content) : '(no result)',
        isError: result ? result.is_error === true : true,
      });
    }
  }
  return runs;
}

/** fileToRead picks a file from the listing: the first the prompt names, else a usual one, else the first. */
function fileToRead(prompt: string, listing: ToolRun): string | null {
  if (listing.isError) return null;
  const files = listing.content.split('\n').filter((e) => e && !e.endsWith('/') && !e.startsWith('…') && !e.startsWith('('));
  const words = prompt.split(/[\s"'`,;:!?()]+/).map((w) => w.replace(/\.$/, ''));
  return words.find((w) => files.includes(w)) ?? PREFERRED_FILES.find((f) => files.includes(f)) ?? files[0] ?? null;
}

function quoted(prompt: string): string | null {
  const m = /"([^"]+)"|'([^']+)'|`([^`]+)`/.exec(prompt);
  return m ? m[1] ?? m[2] ?? m[3] : null;
}

/** answer sums up the turn's tool results, and counts every tool call the conversation holds. */
function answer(conversation: Message[], runs: ToolRun[], root: string): string {
  const lines = [`Here is what I found in ${path.basename(root)}:`];
  for (const run of runs) {
    if (run.isError) {
      lines.push(`- ${run.name} failed: ${run.content}`);
      continue;
    }
    const out = run.content.replace(/\n$/, '').split('\n');
    if (run.name === 'list_dir') lines.push(`- The folder has ${out.length} entries: ${out.slice(0, 4).join(', ')}${out.length > 4 ? ', …' : ''}.`);
    if (run.name === 'read_file') {
      const first = out.find((l) => l.trim()) ?? '';
      lines.push(`- ${run.input.path} has ${out.length} lines; it starts with "${first.trim().slice(0, 60)}".`);
    }
    if (run.name === 'grep') {
      const hits = run.content === 'no matches' ? [] : out;
      const files = new Set(hits.map((l) => l.split(':')[0]));
      lines.push(hits.length
        ? `- "${run.input.pattern}" is on ${hits.length} line${hits.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'}, first ${hits[0]}`
        : `- "${run.input.pattern}" is nowhere in the folder.`);
    }
  }
  const all = toolRuns(conversation);
  const byName = new Map<string, number>();
  for (const r of all) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
  const counts = [...byName].map(([name, n]) => `${name} ×${n}`).join(', ');
  lines.push(`This conversation has made ${all.length} tool calls so far (${counts}).`);
  return lines.join('\n');
}

/** streamOf turns a step into the chunks the API would stream for it. */
function streamOf(step: Step, conversation: Message[]): StreamChunk[] {
  const chunks: StreamChunk[] = [{ type: 'message_start', id: `msg_scripted_${String(conversation.length).padStart(4, '0')}`, model: 'scripted-1' }];
  for (const word of step.text.match(/\S+\s*|\s+/g) ?? []) chunks.push({ type: 'text', text: word });
  if (step.call) {
    const id = `toolu_scripted_${String(conversation.length).padStart(4, '0')}`;
    const json = JSON.stringify(step.call.input);
    const cut = Math.ceil(json.length / 2);
    chunks.push({ type: 'tool_use_start', id, name: step.call.name });
    chunks.push({ type: 'tool_use_delta', partialJson: json.slice(0, cut) });
    chunks.push({ type: 'tool_use_delta', partialJson: json.slice(cut) });
  }
  const input = estimateTokens(JSON.stringify(conversation));
  const output = estimateTokens(step.text + JSON.stringify(step.call ?? ''));
  chunks.push({
    type: 'done',
    stopReason: step.call ? 'tool_use' : 'end_turn',
    usage: { input_tokens: input, output_tokens: output },
  });
  return chunks;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function textOf(content: Block[]): string {
  return content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
}

function contentText(content: ToolResultBlock['content']): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : textOf(content);
}
