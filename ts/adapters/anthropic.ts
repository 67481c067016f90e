import type { Session } from '../session';
import type { Envelope, Usage } from '../types';
import type { MessageOptions } from '../message-state';
import { AdapterOptions, Handler, Recorder, StreamSource, isObject, pump } from './common';

/** One raw Messages stream event, as `@anthropic-ai/sdk` yields it (read by its `type`). */
export interface AnthropicStreamEvent {
  type: string;
}

/** AnthropicEvent is an event as the handler reads it: any field may be there. */
type AnthropicEvent = AnthropicStreamEvent & Record<string, any>;

/**
 * fromAnthropicStream records an `@anthropic-ai/sdk` Messages stream into `session`: the
 * `Stream` of `client.messages.create({ stream: true })` (awaited or not) or the
 * `MessageStream` of `client.messages.stream()`. Every content block is kept as the API sent
 * it: text (with citations), thinking with its signature, redacted thinking, tool_use,
 * server tool blocks. It resolves when the stream ends, with the envelope of the message
 * recorded; when the stream throws, the message is kept with status 'error' and the promise
 * rejects with the stream's error.
 */
export function fromAnthropicStream(
  session: Session,
  stream: StreamSource<AnthropicStreamEvent>,
  options: AdapterOptions = {},
): Promise<Envelope | null> {
  return pump(session, stream, new AnthropicHandler(options.provider ?? 'claude', stream));
}

/** Blocks whose content streams (text, thinking, input); any other block arrives whole. */
function streams(block: Record<string, any>): boolean {
  return block.type === 'text' || block.type === 'thinking' || isObject(block.input);
}

/** AnthropicHandler records one Messages stream's events; fromClaudeAgentSDK reuses it for the SDK's partials. */
export class AnthropicHandler implements Handler<AnthropicEvent> {
  /** The per-message state the next message_start records (a subagent's sidechain). */
  messageState: MessageOptions = {};
  #usage: Usage = {};
  #stopReason: string | undefined;
  #stopSequence: string | undefined;
  /** The index of the block streaming into the session, and its citations so far. */
  #streaming = -1;
  #citations: unknown[] = [];

  constructor(readonly provider: string, readonly source: unknown) {}

  event(ev: AnthropicEvent, rec: Recorder): void {
    switch (ev.type) {
      case 'message_start':
        return this.start(ev.message ?? {}, rec);
      case 'content_block_start':
        return this.blockStart(ev.index, ev.content_block, rec);
      case 'content_block_delta':
        if (ev.index === this.#streaming) this.delta(ev.delta ?? {}, rec);
        return;
      case 'message_delta':
        this.#stopReason = ev.delta?.stop_reason ?? this.#stopReason;
        this.#stopSequence = ev.delta?.stop_sequence ?? this.#stopSequence;
        return this.addUsage(ev.usage);
      case 'message_stop':
        this.#streaming = -1;
        return rec.ingest({ type: 'done', stopReason: this.#stopReason, stopSequence: this.#stopSequence, usage: this.#usage });
    }
    // ping, content_block_stop (the next block or done ends a block), and events this
    // version does not know.
  }

  async end(rec: Recorder): Promise<void> {
    // A MessageStream's iterator ends quietly when the request is aborted or fails after
    // the events it queued; its done() says how the request really ended.
    const source = this.source as any;
    if (typeof source?.done === 'function' && typeof source?.abort === 'function') await source.done();
    if (rec.open) throw new Error('the stream ended before message_stop');
  }

  start(message: Record<string, any>, rec: Recorder): void {
    this.#usage = {};
    this.#stopReason = this.#stopSequence = undefined;
    this.#streaming = -1;
    const requestId = rec.requestId ?? (this.source as any)?.request_id ?? undefined;
    rec.ingest({ type: 'message_start', id: message.id, model: message.model, provider: this.provider, requestId, ...this.messageState });
    this.addUsage(message.usage);
    (message.content ?? []).forEach((block: any, i: number) => this.blockStart(i, block, rec));
  }

  blockStart(index: number, block: unknown, rec: Recorder): void {
    if (!isObject(block) || typeof block.type !== 'string') return;
    if (!streams(block)) {
      this.#streaming = -1;
      rec.ingest({ type: 'block', block: block as any });
      return;
    }
    this.#streaming = index;
    this.#citations = Array.isArray(block.citations) ? [...block.citations] : [];
    rec.ingest({ type: 'block_start', block: block as any });
  }

  delta(delta: Record<string, any>, rec: Recorder): void {
    switch (delta.type) {
      case 'text_delta':
        return rec.ingest({ type: 'text', text: delta.text });
      case 'thinking_delta':
        return rec.ingest({ type: 'thinking', thinking: delta.thinking });
      case 'signature_delta':
        return rec.ingest({ type: 'signature', signature: delta.signature });
      case 'input_json_delta':
        return rec.ingest({ type: 'tool_use_delta', partialJson: delta.partial_json });
      case 'citations_delta':
        this.#citations.push(delta.citation);
        return rec.ingest({ type: 'block_fields', fields: { citations: this.#citations } });
    }
  }

  /**
   * addUsage merges a usage report: message_start gives the first counts, message_delta the
   * final ones; each counter present replaces the one before, as the SDK's own
   * MessageStream does.
   */
  addUsage(usage: unknown): void {
    if (!isObject(usage)) return;
    for (const [k, v] of Object.entries(usage)) {
      if (v !== null && v !== undefined) this.#usage[k] = v;
    }
  }
}
