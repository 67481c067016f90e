import type { Block, Envelope, ToolResultBlock, ToolUseBlock } from 'sessionkeep';

/** One thing the transcript shows: a prompt, a paragraph of the answer, a tool call or its result. */
export type Item =
  | { key: string; kind: 'prompt'; text: string }
  | { key: string; kind: 'text'; text: string }
  | { key: string; kind: 'thinking'; text: string }
  | { key: string; kind: 'call'; id: string; name: string; args: string }
  | { key: string; kind: 'result'; name: string; lines: string[]; more: number; isError: boolean }
  | { key: string; kind: 'note'; text: string; tone: 'warn' | 'error' | 'dim' }
  | { key: string; kind: 'command'; line: string; text: string; isError: boolean };

const RESULT_LINES = 4;

/**
 * itemsOf turns stored messages into what the transcript shows. Tool results name the tool
 * that produced them, found through `calls` (tool_use id → name) across the whole session.
 */
export function itemsOf(envelopes: Envelope[], calls: Map<string, string> = toolNames(envelopes)): Item[] {
  const items: Item[] = [];
  for (const env of conversation(envelopes)) {
    env.message.content.forEach((block, i) => {
      const item = itemOf(env, block, `${env.uuid}:${i}`, calls);
      if (item) items.push(item);
    });
    if (env.status === 'interrupted') items.push({ key: `${env.uuid}:end`, kind: 'note', text: 'interrupted', tone: 'warn' });
    if (env.status === 'error') items.push({ key: `${env.uuid}:end`, kind: 'note', text: `error: ${env.error ?? 'the stream failed'}`, tone: 'error' });
  }
  return items;
}

type MessageEnvelope = Envelope & { message: NonNullable<Envelope['message']> };

/**
 * conversation keeps the records of the main conversation: not a subagent's (sidechain)
 * messages, nor imported records that carry no message.
 */
function conversation(envelopes: Envelope[]): MessageEnvelope[] {
  return envelopes.filter((e): e is MessageEnvelope => e.message !== undefined && !e.isSidechain);
}

function itemOf(env: Envelope, b: Block, key: string, calls: Map<string, string>): Item | null {
  switch (b.type) {
    case 'text': {
      const text = (b as { text: string }).text;
      if (!text.trim()) return null;
      return env.type === 'user' ? { key, kind: 'prompt', text } : { key, kind: 'text', text: text.trim() };
    }
    case 'thinking':
      return { key, kind: 'thinking', text: (b as { thinking: string }).thinking };
    case 'redacted_thinking':
      return { key, kind: 'thinking', text: '(redacted)' };
    case 'tool_use': {
      const use = b as ToolUseBlock;
      return { key, kind: 'call', id: use.id, name: use.name, args: use.raw_input !== undefined ? use.raw_input : argsOf(use.input) };
    }
    case 'tool_result': {
      const result = b as ToolResultBlock;
      const all = resultText(result).replace(/\n+$/, '').split('\n');
      return {
        key, kind: 'result', name: calls.get(result.tool_use_id) ?? 'tool',
        lines: all.slice(0, RESULT_LINES), more: Math.max(0, all.length - RESULT_LINES), isError: result.is_error === true,
      };
    }
    default:
      return { key, kind: 'note', text: `[${b.type}]`, tone: 'dim' };
  }
}

/** toolNames maps each tool_use id of the session to its tool's name. */
export function toolNames(envelopes: Envelope[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const env of conversation(envelopes)) for (const b of env.message.content) if (b.type === 'tool_use') names.set((b as ToolUseBlock).id, (b as ToolUseBlock).name);
  return names;
}

/** argsOf writes a tool input as `path: "src", depth: 2`. */
function argsOf(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  const parts = Object.entries(input).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const text = parts.join(', ');
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

function resultText(b: ToolResultBlock): string {
  if (typeof b.content === 'string') return b.content || '(empty)';
  if (!b.content?.length) return '(empty)';
  return b.content.map((c) => (c.type === 'text' ? (c as { text: string }).text : `[${c.type}]`)).join('\n');
}

/**
 * pendingCalls are the tool calls of the last assistant message still waiting for a result:
 * what the agent is running now.
 */
export function pendingCalls(all: Envelope[]): ToolUseBlock[] {
  const envelopes = conversation(all);
  const lastAssistant = envelopes.findLastIndex((e) => e.type === 'assistant');
  if (lastAssistant < 0) return [];
  const answered = new Set<string>();
  for (const env of envelopes.slice(lastAssistant + 1)) {
    for (const b of env.message.content) if (b.type === 'tool_result') answered.add((b as ToolResultBlock).tool_use_id);
  }
  return envelopes[lastAssistant].message.content.filter(
    (b): b is ToolUseBlock => b.type === 'tool_use' && !answered.has((b as ToolUseBlock).id),
  );
}
