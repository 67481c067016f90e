import Anthropic from '@anthropic-ai/sdk';
import { fromAnthropicStream, type Block, type Message } from 'sessionkeep';
import type { Model } from './model.js';
import { TOOL_DEFINITIONS } from './tools.js';

/**
 * The real-API path: Claude through the official SDK, streaming, recorded by sessionkeep's
 * fromAnthropicStream as the events arrive. Everything that knows the Anthropic API is in
 * this module.
 */
export async function anthropicModel(apiKey: string, root: string): Promise<Model> {
  const client = new Anthropic({ apiKey });
  const model = process.env.ANTHROPIC_MODEL || DEFAULT_MODEL;
  return {
    label: model,
    provider: 'claude',
    model,
    contextWindow: await contextWindowOf(client, model),
    async reply(conversation, session, signal) {
      const stream = client.messages.stream({
        model,
        max_tokens: 4096,
        system: `You are a coding assistant working in the folder ${root}. Look at the project with the tools before answering; answer briefly.`,
        tools: TOOL_DEFINITIONS,
        messages: toRequest(conversation) as Anthropic.MessageParam[],
      }, { signal });
      await fromAnthropicStream(session, stream);
    },
    async summarize(messages, targetTokens) {
      const request = toRequest(messages as Message[]);
      const ask = `Summarize the conversation above for whoever takes it up next, in about ${targetTokens} tokens: the task, what was found, what was changed, what is left.`;
      const last = request.at(-1);
      if (last?.role === 'user') last.content.push({ type: 'text', text: ask });
      else request.push({ role: 'user', content: [{ type: 'text', text: ask }] });
      const reply = await client.messages.create({ model, max_tokens: Math.max(256, targetTokens * 2), messages: request as Anthropic.MessageParam[] });
      return reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    },
  };
}

const DEFAULT_MODEL = 'claude-sonnet-4-6';
const FALLBACK_WINDOW = 200_000;

/** contextWindowOf asks the Models API for the model's input limit, for the context meter. */
async function contextWindowOf(client: Anthropic, model: string): Promise<number> {
  try {
    const info = await client.models.retrieve(model, {}, { timeout: 5000, maxRetries: 0 });
    return info.max_input_tokens ?? FALLBACK_WINDOW;
  } catch {
    return FALLBACK_WINDOW;
  }
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
