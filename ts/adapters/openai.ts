import type { Session } from '../session';
import type { Envelope, Usage } from '../types';
import { AdapterOptions, Recorder, StreamSource, isObject, num, pump, trackerUsage } from './common';

/** A Chat Completions chunk or a Responses stream event, as the `openai` SDK yields them. */
export type OpenAIStreamEvent = object;

/** OpenAIEvent is an event as the handlers read it: any field may be there. */
type OpenAIEvent = Record<string, any>;

/**
 * fromOpenAIStream records an `openai` SDK stream into `session`, in the Anthropic-shaped
 * blocks sessionkeep keeps: Chat Completions chunks (`client.chat.completions.create({ stream:
 * true })` or `.stream()`), or Responses API events (`client.responses.create({ stream: true })`
 * or `.stream()`). Text becomes text blocks, function calls tool_use blocks (the call id as
 * `id`); a Responses reasoning item, with its encrypted content, and any other output item are
 * kept verbatim as blocks of their own type, so they can be sent back as they came. It resolves
 * when the stream ends, with the envelope of the message recorded.
 */
export function fromOpenAIStream(
  session: Session,
  stream: StreamSource<OpenAIStreamEvent>,
  options: AdapterOptions = {},
): Promise<Envelope | null> {
  const provider = options.provider ?? 'openai';
  let api: ChatCompletions | Responses | undefined;
  return pump(session, stream, {
    event(ev, rec) {
      if (!isObject(ev)) return;
      api ??= isChatChunk(ev) ? new ChatCompletions(provider) : new Responses(provider);
      api.event(ev, rec);
    },
    end: (rec) => api?.end(rec),
  });
}

function isChatChunk(ev: OpenAIEvent): boolean {
  return ev.object === 'chat.completion.chunk' || Array.isArray(ev.choices);
}

/** OpenAI counts cached tokens inside the input tokens; the tracker counts them apart. */
function openAIUsage(input: unknown, cached: unknown, output: unknown, raw: unknown): Usage {
  return trackerUsage(num(input) - num(cached), num(cached), 0, num(output), raw);
}

const FINISH_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

/**
 * ChatCompletions records the first choice of Chat Completions chunks. Tool calls stream
 * one after another by index: a new index ends the call before it, as the SDK's own
 * ChatCompletionStream assumes.
 */
class ChatCompletions {
  #started = false;
  #finishReason: string | undefined;
  #usage: Usage | undefined;
  #refusal = '';
  #toolIndex: number | undefined;
  #ended = new Set<number>();

  constructor(readonly provider: string) {}

  event(chunk: OpenAIEvent, rec: Recorder): void {
    if (!this.#started) {
      this.#started = true;
      rec.ingest({ type: 'message_start', id: chunk.id, model: chunk.model, provider: this.provider, requestId: rec.requestId });
    }
    if (isObject(chunk.usage)) {
      const u = chunk.usage;
      this.#usage = openAIUsage(u.prompt_tokens, u.prompt_tokens_details?.cached_tokens, u.completion_tokens, u);
    }
    const choice = (chunk.choices ?? []).find((c: any) => (c?.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') rec.ingest({ type: 'thinking', thinking: reasoning });
    if (typeof delta.content === 'string' && delta.content !== '') rec.ingest({ type: 'text', text: delta.content });
    if (typeof delta.refusal === 'string') this.#refusal += delta.refusal;
    for (const call of delta.tool_calls ?? []) this.toolCall(call, rec);
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
  }

  toolCall(call: Record<string, any>, rec: Recorder): void {
    const index = call.index ?? 0;
    if (index !== this.#toolIndex) {
      if (this.#ended.has(index)) {
        throw new Error(`tool call ${index} got more arguments after tool call ${this.#toolIndex} began; sessionkeep records tool calls one after another`);
      }
      if (this.#toolIndex !== undefined) this.#ended.add(this.#toolIndex);
      this.#toolIndex = index;
      rec.ingest({ type: 'tool_use_start', id: call.id, name: call.function?.name ?? '' });
    }
    const args = call.function?.arguments;
    if (typeof args === 'string' && args !== '') rec.ingest({ type: 'tool_use_delta', partialJson: args });
  }

  end(rec: Recorder): void {
    if (this.#refusal !== '') rec.ingest({ type: 'block', block: { type: 'refusal', refusal: this.#refusal } });
    if (this.#finishReason === undefined) throw new Error('the stream ended before a finish_reason');
    const stopReason = FINISH_REASONS[this.#finishReason] ?? this.#finishReason;
    rec.ingest({ type: 'done', stopReason, usage: this.#usage });
  }
}

/**
 * Responses records Responses API stream events. Text and function call arguments stream
 * into the session as they come; items with no Anthropic counterpart (reasoning, web search
 * calls, …) are recorded whole when they are done.
 */
class Responses {
  /** Output items whose content is streaming into the session, by item id. */
  #streamedArgs = new Map<string, boolean>();

  constructor(readonly provider: string) {}

  event(ev: OpenAIEvent, rec: Recorder): void {
    switch (ev.type) {
      case 'response.created':
        return rec.ingest({ type: 'message_start', id: ev.response?.id, model: ev.response?.model, provider: this.provider, requestId: rec.requestId });
      case 'response.output_item.added':
        return this.itemAdded(ev.item, rec);
      case 'response.content_part.added':
        if (ev.part?.type === 'output_text') {
          rec.ingest({ type: 'block_start', block: { type: 'text', text: ev.part.text ?? '', openai: { item_id: ev.item_id } } });
        }
        return;
      case 'response.output_text.delta':
        return rec.ingest({ type: 'text', text: ev.delta });
      case 'response.content_part.done':
        return this.partDone(ev, rec);
      case 'response.function_call_arguments.delta':
        this.#streamedArgs.set(ev.item_id, true);
        return rec.ingest({ type: 'tool_use_delta', partialJson: ev.delta });
      case 'response.output_item.done':
        return this.itemDone(ev.item, rec);
      case 'response.completed':
      case 'response.incomplete':
        return this.completed(ev.response ?? {}, rec);
      case 'response.failed':
        throw new Error(ev.response?.error?.message ?? 'the response failed');
      case 'error':
        throw new Error(ev.message ?? 'the stream reported an error');
    }
  }

  itemAdded(item: Record<string, any>, rec: Recorder): void {
    if (item?.type !== 'function_call') return;
    this.#streamedArgs.set(item.id, false);
    rec.ingest({
      type: 'block_start',
      block: { type: 'tool_use', id: item.call_id, name: item.name, input: {}, openai: { item_id: item.id } },
    });
  }

  partDone(ev: OpenAIEvent, rec: Recorder): void {
    const part = ev.part ?? {};
    if (part.type === 'output_text' && Array.isArray(part.annotations) && part.annotations.length > 0) {
      rec.ingest({ type: 'block_fields', fields: { openai: { item_id: ev.item_id, annotations: part.annotations } } });
    } else if (part.type === 'refusal') {
      rec.ingest({ type: 'block', block: { type: 'refusal', refusal: part.refusal, openai: { item_id: ev.item_id } } });
    }
  }

  itemDone(item: Record<string, any>, rec: Recorder): void {
    if (!isObject(item) || item.type === 'message') return;
    if (item.type === 'function_call') {
      // Arguments that came only whole, with the item, stream in now.
      if (this.#streamedArgs.get(item.id) === false && item.arguments) {
        rec.ingest({ type: 'tool_use_delta', partialJson: item.arguments });
      }
      return;
    }
    rec.ingest({ type: 'block', block: item as any });
  }

  completed(response: Record<string, any>, rec: Recorder): void {
    const u = response.usage;
    const usage = isObject(u) ? openAIUsage(u.input_tokens, u.input_tokens_details?.cached_tokens, u.output_tokens, u) : undefined;
    rec.ingest({ type: 'done', stopReason: stopReason(response), usage });
  }

  end(rec: Recorder): void {
    if (rec.open) throw new Error('the stream ended before response.completed');
  }
}

/** stopReason says why a response ended, in the Anthropic names. */
function stopReason(response: Record<string, any>): string {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    return reason === 'max_output_tokens' ? 'max_tokens' : reason === 'content_filter' ? 'refusal' : reason ?? 'incomplete';
  }
  const calls = (response.output ?? []).some((item: any) => item?.type === 'function_call');
  return calls ? 'tool_use' : 'end_turn';
}
