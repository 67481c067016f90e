import { argTypeError } from './errors';
import { native, Handle } from './native';
import { ingestChunk } from './ingest';
import { toJSON } from './serialize';
import type { Block, Envelope, Message, StreamChunk, TokenTracker, Turn } from './types';
import * as context from './context';
import type { BuildContextAsyncOptions, BuildContextOptions, CompactOptions, CompactResult, ContextReport, ContextResult } from './context-types';
import type { PriceOptions, ResumeSummary, ResumeSummaryOptions, SessionDetails } from './management-types';
import { optionsJSON } from './options';
import { resumeSummary } from './resume-summary';
import type { MessageContext, MessageOptions } from './message-state';

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

  /**
   * appendUserMessage records a user prompt (or tool results given as blocks) and returns its
   * envelope. options give the message its state: sidechain, context, todos, thinkingMetadata.
   */
  appendUserMessage(content: string | Block[], options?: MessageOptions): Envelope {
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw argTypeError('content', 'a string or an array of blocks');
    }
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw argTypeError('options', 'an object');
    }
    return JSON.parse(native.appendUserMessage(this.#h, toJSON(content)!, options && JSON.stringify(options)));
  }

  /**
   * setContext sets the context ({ cwd, gitBranch, platform, … }) stamped on every message
   * that begins after the call, until it is set again; null clears it.
   */
  setContext(context: MessageContext | null): void {
    if (typeof context !== 'object') {
      throw argTypeError('context', 'an object or null');
    }
    native.setContext(this.#h, context === null ? undefined : JSON.stringify(context));
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
   * lastEnvelope is the envelope of the session's last message, or null when it has none.
   * It reads that one message, off the JS thread, so it costs the same on any session.
   */
  async lastEnvelope(): Promise<Envelope | null> {
    return JSON.parse(await native.lastEnvelopeAsync(this.#h));
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

  /**
   * info returns the session's listing (title, project, model, times, counts, token totals,
   * status) with its message counts and token usage by model, priced when `prices` are given.
   */
  info(options: PriceOptions = {}): SessionDetails {
    return JSON.parse(native.sessionInfo(this.#h, optionsJSON(options)));
  }

  /**
   * resumeSummary returns what to show when the session is resumed (seed 003): id, last
   * activity ("2 hours ago"), interactions, tokens, cost when priced, context usage of the
   * window; `text` is the same for people.
   */
  resumeSummary(options: ResumeSummaryOptions = {}): ResumeSummary {
    return resumeSummary(this.info(options), options.now);
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
