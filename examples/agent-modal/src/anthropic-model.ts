import Anthropic from '@anthropic-ai/sdk';
import type { Block, Message, Session, Usage } from 'sessionkeep';
import type { Model } from './model.js';
import { TOOL_DEFINITIONS } from './tools.js';

/**
 * The real-API path: Claude through the official SDK, streaming. Everything that knows the
 * Anthropic API is in this module.
 */
export function anthropicModel(apiKey: string, root: string): Model {
  const client = new Anthropic({ apiKey });
  const model = process.env.ANTHROPIC_MODEL || 'claude-sonnet-4-5';
  return {
    label: model,
    provider: 'claude',
    model,
    contextWindow: 200_000,
    async reply(conversation, session, signal) {
      const stream = client.messages.stream({
        model,
        max_tokens: 4096,
        system: `You are a coding assistant working in the folder ${root}. Look at the project with the tools before answering; answer briefly.`,
        tools: TOOL_DEFINITIONS,
        messages: toRequest(conversation) as Anthropic.MessageParam[],
      }, { signal });
      await ingestStream(session, stream);
    },
  };
}

/**
 * ingestStream records the SDK's stream events as sessionkeep chunks. sessionkeep's own
 * adapter, fromAnthropicStream(session, stream), is being written beside this example; this
 * function is what it will replace.
 */
async function ingestStream(session: Session, stream: ReturnType<Anthropic['messages']['stream']>): Promise<void> {
  let usage: Usage = {};
  let stop: { stopReason?: string; stopSequence?: string } = {};
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        usage = { ...event.message.usage } as Usage;
        session.ingest({ type: 'message_start', id: event.message.id, model: event.message.model, provider: 'claude', requestId: stream.request_id ?? undefined });
        break;
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'tool_use') session.ingest({ type: 'tool_use_start', id: b.id, name: b.name });
        else if (b.type === 'redacted_thinking') session.ingest({ type: 'redacted_thinking', data: b.data });
        break;
      }
      case 'content_block_delta': {
        const d = event.delta;
        if (d.type === 'text_delta') session.ingest({ type: 'text', text: d.text });
        else if (d.type === 'thinking_delta') session.ingest({ type: 'thinking', thinking: d.thinking });
        else if (d.type === 'signature_delta') session.ingest({ type: 'signature', signature: d.signature });
        else if (d.type === 'input_json_delta') session.ingest({ type: 'tool_use_delta', partialJson: d.partial_json });
        break;
      }
      case 'message_delta':
        // The delta's counts are cumulative; a null means "as at the start".
        for (const [k, v] of Object.entries(event.usage)) if (v !== null && v !== undefined) usage[k] = v;
        stop = { stopReason: event.delta.stop_reason ?? undefined, stopSequence: event.delta.stop_sequence ?? undefined };
        break;
      case 'message_stop':
        session.ingest({ type: 'done', ...stop, usage: numbersOnly(usage) });
        break;
    }
  }
}

/** numbersOnly keeps the usage fields that are counts (the API adds objects such as server_tool_use). */
function numbersOnly(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, v]) => typeof v === 'number')) as Usage;
}

/**
 * toRequest makes the stored conversation a valid request: message fields the API does not
 * take are dropped, and a tool call left without a result (the agent was stopped while it
 * ran) is answered as interrupted. Only the request changes; the session keeps what happened.
 */
export function toRequest(conversation: Message[]): { role: 'user' | 'assistant'; content: Block[] }[] {
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (let i = 0; i < conversation.length; i++) {
    const m = conversation[i];
    const content = m.content.flatMap(sendable);
    if (m.role === 'assistant') {
      const answered = new Set(conversation[i + 1]?.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      const missing = content.filter((b) => b.type === 'tool_use' && !answered.has(b.id as string));
      if (content.length) out.push({ role: 'assistant', content });
      if (missing.length) {
        out.push({ role: 'user', content: missing.map((b) => ({ type: 'tool_result', tool_use_id: b.id as string, is_error: true, content: 'interrupted: the agent stopped before this tool finished' })) });
      }
    } else if (content.length) {
      const prev = out.at(-1);
      if (prev?.role === 'user') prev.content.push(...content);
      else out.push({ role: 'user', content });
    }
  }
  return out;
}

/** sendable is the block as the API takes it: thinking without its signature is refused, and so are fields sessionkeep added. */
function sendable(b: Block): Block[] {
  if (b.type === 'thinking') return typeof b.signature === 'string' ? [b] : [];
  if (b.type === 'tool_use') return [{ type: 'tool_use', id: b.id, name: b.name, input: b.input }];
  return [b];
}
