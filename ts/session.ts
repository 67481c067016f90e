import { argTypeError } from './errors';
import { native, Handle } from './native';
import { ingestChunk } from './ingest';
import { toJSON, toJSONSplit } from './serialize';
import { parseParts, readParts } from './parts';
import { Pending } from './pending';
import type { Block, Envelope, Message, StreamChunk, TokenTracker, Turn } from './types';

/**
 * Session is one conversation, recorded with full fidelity as it streams. Get one from
 * store.createSession() or store.openSession(); opening the same id twice in a process
 * gives two objects over one live session.
 */
export class Session {
  /** The session's id, a UUID v7. */
  readonly id: string;
  readonly #h: Handle;
  /** Deltas joined on the JS side, shared by every Session object over this live session. */
  readonly #p: Pending;
  #closed = false;

  /** @internal */
  constructor(handle: Handle, id: string, pending: Pending) {
    this.#h = handle;
    this.id = id;
    this.#p = pending;
    pending.users++;
  }

  /** appendUserMessage records a user prompt (or tool results given as blocks) and returns its envelope. */
  appendUserMessage(content: string | Block[]): Envelope {
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw argTypeError('content', 'a string or an array of blocks');
    }
    const [json, strings] = toJSONSplit(content);
    this.#p.flush();
    const envelope = JSON.parse(native.appendUserMessage(this.#h, json, strings));
    return withUserMessage(envelope, content, json, strings);
  }

  /** ingest records one stream chunk. It returns at once; the writer makes it durable in the background. */
  ingest(chunk: StreamChunk): void {
    ingestChunk(this.#h, this.#p, chunk);
  }

  /** messages returns the conversation as the provider API takes it, every block included. */
  messages(): Message[] {
    this.#p.flush();
    return parseParts(native.messages(this.#h));
  }

  /** envelopes returns the messages with their envelopes (uuid, parentUuid, status, turn, …). */
  envelopes(): Envelope[] {
    this.#p.flush();
    return parseParts(native.envelopes(this.#h));
  }

  /** messagesAsync is messages() read off the JS thread, for large sessions. */
  messagesAsync(): Promise<Message[]> {
    return readParts((onPart) => {
      this.#p.flush();
      return native.messagesAsync(this.#h, onPart);
    });
  }

  /** envelopesAsync is envelopes() read off the JS thread. */
  envelopesAsync(): Promise<Envelope[]> {
    return readParts((onPart) => {
      this.#p.flush();
      return native.envelopesAsync(this.#h, onPart);
    });
  }

  /**
   * tail returns the last n messages with their envelopes, oldest first: what a resumed
   * session shows without reading the whole conversation.
   */
  tail(n: number): Envelope[] {
    this.#p.flush();
    return parseParts(native.tail(this.#h, n));
  }

  /** tailAsync is tail() read off the JS thread. */
  tailAsync(n: number): Promise<Envelope[]> {
    return readParts((onPart) => {
      this.#p.flush();
      return native.tailAsync(this.#h, n, onPart);
    });
  }

  /**
   * restoreMessages seeds an empty session with structured messages, every block type kept,
   * deriving turns and the token tracker from them. Throws SESSION_NOT_EMPTY otherwise.
   */
  restoreMessages(messages: Message[]): void {
    if (!Array.isArray(messages)) {
      throw argTypeError('messages', 'an array of messages');
    }
    this.#p.flush();
    native.restoreMessages(this.#h, toJSON(messages)!);
  }

  /** turns returns the user→assistant exchanges as inclusive index ranges over messages(). */
  turns(): Turn[] {
    this.#p.flush();
    return JSON.parse(native.turns(this.#h));
  }

  /** tokenTracker returns the token sums over the session and the current context size. */
  tokenTracker(): TokenTracker {
    this.#p.flush();
    return JSON.parse(native.tokenTracker(this.#h));
  }

  /** restoreTokenTracker replaces the session's token accounting. */
  restoreTokenTracker(tracker: TokenTracker): void {
    if (typeof tracker !== 'object' || tracker === null) {
      throw argTypeError('tracker', 'an object');
    }
    this.#p.flush();
    native.restoreTokenTracker(this.#h, JSON.stringify(tracker));
  }

  /** flush resolves once everything ingested so far is durable on disk. */
  async flush(): Promise<void> {
    this.#p.flush();
    return native.flush(this.#h);
  }

  /** close releases the session; an unfinished message is kept and marked interrupted. */
  close(): void {
    try {
      this.#p.flush();
    } finally {
      if (!this.#closed) {
        this.#closed = true;
        this.#p.users--;
      }
      native.sessionClose(this.#h);
    }
  }
}

/**
 * withUserMessage completes the envelope native code returned for a user message with the
 * message itself, built from the JSON that was recorded. It is parsed when first read: a
 * caller that records a large tool output and ignores the envelope never pays for parsing
 * it back.
 */
function withUserMessage(envelope: Envelope, content: string | Block[], json: string, strings: string[] | undefined): Envelope {
  let message: Message | undefined;
  const large = (_key: string, v: unknown): unknown =>
    typeof v === 'string' && v.length > 0 && v.charCodeAt(0) === 0 ? strings![Number(v.slice(1))] : v;
  const build = (): Message => ({
    role: 'user',
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : JSON.parse(json, strings ? large : undefined),
  });
  return Object.defineProperty(envelope, 'message', {
    enumerable: true,
    configurable: true,
    get: () => (message ??= build()),
    set: (value: Message) => { message = value; },
  });
}
