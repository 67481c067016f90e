import { argTypeError } from './errors';
import { native, Handle } from './native';
import { ingestChunk } from './ingest';
import { toJSON } from './serialize';
import type { Block, Envelope, Message, StreamChunk, TokenTracker, Turn } from './types';
import * as context from './context';
import type { BuildContextAsyncOptions, BuildContextOptions, CompactOptions, CompactResult, ContextReport, ContextResult } from './context-types';

/**
 * Session is one conversation, recorded with full fidelity as it streams. Get one from
 * store.createSession() or store.openSession(); opening the same id twice in a process
 * gives two objects over one live session.
 */
export class Session {
  /** The session's id, a UUID v7. */
  readonly id: string;
  readonly #h: Handle;

  /** @internal */
  constructor(handle: Handle, id: string) {
    this.#h = handle;
    this.id = id;
  }

  /** appendUserMessage records a user prompt (or tool results given as blocks) and returns its envelope. */
  appendUserMessage(content: string | Block[]): Envelope {
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw argTypeError('content', 'a string or an array of blocks');
    }
    return JSON.parse(native.appendUserMessage(this.#h, toJSON(content)!));
  }

  /** ingest records one stream chunk. It returns at once; the writer makes it durable in the background. */
  ingest(chunk: StreamChunk): void {
    ingestChunk(this.#h, chunk);
  }

  /** messages returns the conversation as the provider API takes it, every block included. */
  messages(): Message[] {
    return JSON.parse(native.messages(this.#h));
  }

  /** envelopes returns the messages with their envelopes (uuid, parentUuid, status, turn, …). */
  envelopes(): Envelope[] {
    return JSON.parse(native.envelopes(this.#h));
  }

  /** messagesAsync is messages() read off the JS thread, for large sessions. */
  async messagesAsync(): Promise<Message[]> {
    return JSON.parse(await native.messagesAsync(this.#h));
  }

  /** envelopesAsync is envelopes() read off the JS thread. */
  async envelopesAsync(): Promise<Envelope[]> {
    return JSON.parse(await native.envelopesAsync(this.#h));
  }

  /**
   * restoreMessages seeds an empty session with structured messages, every block type kept,
   * deriving turns and the token tracker from them. Throws SESSION_NOT_EMPTY otherwise.
   */
  restoreMessages(messages: Message[]): void {
    if (!Array.isArray(messages)) {
      throw argTypeError('messages', 'an array of messages');
    }
    native.restoreMessages(this.#h, toJSON(messages)!);
  }

  /** turns returns the user→assistant exchanges as inclusive index ranges over messages(). */
  turns(): Turn[] {
    return JSON.parse(native.turns(this.#h));
  }

  /** tokenTracker returns the token sums over the session and the current context size. */
  tokenTracker(): TokenTracker {
    return JSON.parse(native.tokenTracker(this.#h));
  }

  /** restoreTokenTracker replaces the session's token accounting. */
  restoreTokenTracker(tracker: TokenTracker): void {
    if (typeof tracker !== 'object' || tracker === null) {
      throw argTypeError('tracker', 'an object');
    }
    native.restoreTokenTracker(this.#h, JSON.stringify(tracker));
  }

  /** flush resolves once everything ingested so far is durable on disk. */
  async flush(): Promise<void> {
    return native.flush(this.#h);
  }

  /** close releases the session; an unfinished message is kept and marked interrupted. */
  close(): void {
    native.sessionClose(this.#h);
  }
  /** buildContext builds the next model call's messages within a token budget; see docs/api.md. */
  buildContext(options: BuildContextOptions): ContextResult {
    return context.buildContext(this.#h, options);
  }

  /** buildContextAsync is buildContext off the JS thread; with a summarizer it also compacts when due. */
  async buildContextAsync(options: BuildContextAsyncOptions): Promise<ContextResult> {
    return context.buildContextAsync(this.#h, this.id, options);
  }

  /** compact summarizes the older turns and writes a boundary that later builds start from. */
  async compact(options: CompactOptions): Promise<CompactResult> {
    return context.compact(this.#h, this.id, options);
  }

  /** debugContext returns what the last built context held and why (/debug context), null before any. */
  debugContext(): ContextReport | null {
    return context.debugContext(this.#h);
  }
}
