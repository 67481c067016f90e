import { argTypeError } from './errors';
import { native, Handle } from './native';
import { disposeSymbol } from './dispose';
import { toJSON, toJSONSplit, encode } from './serialize';
import type { Block, Envelope, Message, StreamChunk, TokenTracker, Turn } from './types';
import { onFirstUse } from './lazy';
import type { BuildContextAsyncOptions, BuildContextOptions, CompactOptions, CompactResult, ContextReport, ContextResult } from './context-types';
import type { SessionStatus } from './types';
import type {
  HistoryEntry, MissedContext, MissedContextOptions, PriceOptions, ResumeSummary, ResumeSummaryOptions, SessionDetails,
} from './management-types';
import { optionsJSON } from './options';
import { watchSession } from './watch';
import type { MessageContext, MessageOptions } from './message-state';
import type { SessionTree } from './branches';
import type { FileSnapshot, RestoreFilesOptions, RestoreFilesResult, SnapshotFilesOptions } from './file-snapshots';

// What each group of methods needs is loaded at its first call: streaming chunks (ingest),
// reading messages (parts), context building, the resume summary. An app that only opens a
// store carries none of it (about 0.15 MB of resident memory a module).
// Ingest is the hot path: its function is looked up once, at the first chunk, and then
// called directly, not through onFirstUse's Proxy (about 23 ns a chunk).
let ingestChunk: typeof import('./ingest').ingestChunk | undefined;
const parts = onFirstUse(() => require('./parts') as typeof import('./parts'));
const context = onFirstUse(() => require('./context') as typeof import('./context'));
const summaries = onFirstUse(() => require('./resume-summary') as typeof import('./resume-summary'));

/**
 * Session is one conversation, recorded with full fidelity as it streams. Get one from
 * store.createSession() or store.openSession(); opening the same id twice in a process
 * gives two objects over one live session.
 */
export class Session {
  /** The session's id, a UUID v7. */
  readonly id: string;
  readonly #h: Handle;

  /**
   * A session comes from its store (createSession(), openSession(), findSession(), …): the
   * handle is the addon's, which only the store hands out.
   */
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
    const [json, strings] = toJSONSplit(content);
    const envelope = JSON.parse(native.appendUserMessage(this.#h, json, options && encode(options), strings));
    return withUserMessage(envelope, content, json, strings);
  }

  /**
   * setContext sets the context ({ cwd, gitBranch, platform, … }) stamped on every message
   * that begins after the call, until it is set again; null clears it.
   */
  setContext(context: MessageContext | null): void {
    if (typeof context !== 'object') {
      throw argTypeError('context', 'an object or null');
    }
    native.setContext(this.#h, context === null ? undefined : encode(context));
  }

  /** ingest records one stream chunk. It returns at once; the writer makes it durable in the background. */
  ingest(chunk: StreamChunk): void {
    (ingestChunk ??= (require('./ingest') as typeof import('./ingest')).ingestChunk)(this.#h, chunk);
  }

  /** messages returns the conversation as the provider API takes it, every block included. */
  messages(): Message[] {
    return parts.parseParts(this.#h, native.messages(this.#h));
  }

  /** envelopes returns the messages with their envelopes (uuid, parentUuid, status, turn, …). */
  envelopes(): Envelope[] {
    return parts.parseParts(this.#h, native.envelopes(this.#h));
  }

  /** messagesAsync is messages() read off the JS thread, for large sessions. */
  messagesAsync(): Promise<Message[]> {
    return parts.readParts(this.#h, (onPart) => native.messagesAsync(this.#h, onPart));
  }

  /** envelopesAsync is envelopes() read off the JS thread. */
  envelopesAsync(): Promise<Envelope[]> {
    return parts.readParts(this.#h, (onPart) => native.envelopesAsync(this.#h, onPart));
  }

  /**
   * tail returns the last n records of the branch at the head with their envelopes, oldest
   * first: what a resumed session shows without reading the whole conversation.
   */
  tail(n: number): Envelope[] {
    return parts.parseParts(this.#h, native.tail(this.#h, n));
  }

  /** tailAsync is tail() read off the JS thread. */
  tailAsync(n: number): Promise<Envelope[]> {
    return parts.readParts(this.#h, (onPart) => native.tailAsync(this.#h, n, onPart));
  }

  /**
   * lastEnvelope is the envelope of the session's last message, or null when it has none:
   * the last of envelopes(), on the branch that ends at the head (after rewind(), not the
   * last one written). It reads that one message, off the JS thread.
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
    native.restoreTokenTracker(this.#h, encode(tracker));
  }

  /**
   * details returns the session's listing (title, project, model, times, counts, token
   * totals, status: its SessionInfo) with its message counts and token usage by model,
   * priced by the built-in list prices under `prices`.
   */
  details(options: PriceOptions = {}): SessionDetails {
    return JSON.parse(native.sessionDetails(this.#h, optionsJSON(options)));
  }

  /** detailsAsync is details() read off the JS thread, for large sessions. */
  async detailsAsync(options: PriceOptions = {}): Promise<SessionDetails> {
    return JSON.parse(await native.sessionDetailsAsync(this.#h, optionsJSON(options)));
  }

  /**
   * resumeSummary returns what to show when the session is resumed (seed 003): id, last
   * activity ("2 hours ago"), interactions, tokens, cost when priced, context usage of the
   * window; `text` is the same for people.
   */
  resumeSummary(options: ResumeSummaryOptions = {}): ResumeSummary {
    return summaries.resumeSummary(this.details({ prices: options.prices }), options.now);
  }

  /** resumeSummaryAsync is resumeSummary() read off the JS thread. */
  async resumeSummaryAsync(options: ResumeSummaryOptions = {}): Promise<ResumeSummary> {
    return summaries.resumeSummary(await this.detailsAsync({ prices: options.prices }), options.now);
  }

  /**
   * status is the session's stored status: 'active', 'interrupted' (a process died or was
   * stopped with it open, or a reply was cut off), 'archived' or 'corrupted'.
   */
  get status(): SessionStatus {
    return native.sessionStatus(this.#h) as SessionStatus;
  }

  /** checkpoint is the last pubsub id committed with commitCheckpoint(), undefined before any. */
  get checkpoint(): number | undefined {
    return JSON.parse(native.hostedState(this.#h)).checkpoint;
  }

  /** sdkSessionId is the SDK's own session id recorded with updateSdkSession(), if any. */
  get sdkSessionId(): string | undefined {
    return JSON.parse(native.hostedState(this.#h)).sdkSessionId;
  }

  /**
   * commitCheckpoint records that the pubsub message `pubsubId` has been safely processed, and
   * with it everything recorded in the session so far. The session is active again.
   */
  commitCheckpoint(pubsubId: number): void {
    if (typeof pubsubId !== 'number') throw argTypeError('pubsubId', 'a number');
    native.commitCheckpoint(this.#h, encode(pubsubId));
  }

  /** updateSdkSession records the SDK's own session id once the model has finished. */
  updateSdkSession(sessionId: string): void {
    native.updateSdkSession(this.#h, sessionId);
  }

  /** clearSdkSession forgets the SDK's session id, so the next run starts a fresh one. */
  clearSdkSession(): void {
    native.clearSdkSession(this.#h);
  }

  /** storeMessage appends to the manual history of a stateless responder. */
  storeMessage(role: 'user' | 'assistant', content: string): void {
    native.storeMessage(this.#h, role, content);
  }

  /** getHistory returns the last `limit` history entries (all without a limit), oldest first. */
  getHistory(limit?: number): HistoryEntry[] {
    if (limit !== undefined && typeof limit !== 'number') throw argTypeError('limit', 'a number');
    return JSON.parse(native.getHistory(this.#h, limit === undefined ? undefined : encode(limit)));
  }

  /** clearHistory deletes the manual history; the session's messages stay. */
  clearHistory(): void {
    native.clearHistory(this.#h);
  }

  /**
   * formatMissedContext formats the messages recorded since the last commitCheckpoint() or
   * updateSdkSession(), newest kept, in at most `maxChars` characters (default 8000).
   */
  formatMissedContext(options: MissedContextOptions = {}): MissedContext {
    return JSON.parse(native.formatMissedContext(this.#h, optionsJSON(options)));
  }

  /** flush resolves once everything ingested so far is durable on disk. */
  async flush(): Promise<void> {
    return native.flush(this.#h);
  }

  /**
   * watch calls onChange after each commit to this session by any process on any host, and
   * returns the function that stops watching; see docs/api.md. PostgreSQL stores only: on a
   * SQLite store it throws UNSUPPORTED.
   */
  watch(onChange: () => void): () => void {
    return watchSession(this.#h, onChange);
  }

  /** close releases the session; an unfinished message is kept and marked interrupted. */
  close(): void {
    native.sessionClose(this.#h);
  }

  /** [Symbol.dispose] closes the session at the end of a `using` block. */
  [disposeSymbol](): void {
    this.close();
  }

  /** buildContext builds the next model call's messages within a token budget; see docs/api.md. */
  buildContext(options: BuildContextOptions): ContextResult {
    return context.buildContext(this, this.#h, options);
  }

  /** buildContextAsync is buildContext off the JS thread; with a summarizer it also compacts when due. */
  async buildContextAsync(options: BuildContextAsyncOptions): Promise<ContextResult> {
    return context.buildContextAsync(this, this.#h, options);
  }

  /** compact summarizes the older turns and writes a boundary that later builds start from. */
  async compact(options: CompactOptions): Promise<CompactResult> {
    return context.compact(this.#h, this.id, options);
  }

  /** debugContext returns what the last built context held and why (/debug context), null before any. */
  debugContext(): ContextReport | null {
    return context.debugContext(this.#h);
  }

  /**
   * tree returns the session's records as a tree (seed 002): each with its children, the
   * head and the branch that ends at it marked, sidechains under the tool call that started
   * them. Nothing is ever left out, whatever branch is current.
   */
  tree(): SessionTree {
    return JSON.parse(native.tree(this.#h));
  }

  /** treeAsync is tree() read off the JS thread. */
  async treeAsync(): Promise<SessionTree> {
    return JSON.parse(await native.treeAsync(this.#h));
  }

  /**
   * rewind moves the session's head back to the main-chain message `toUuid`, deleting
   * nothing: messages(), envelopes(), turns() and tokenTracker() then follow the branch that
   * ends there, and the next message starts a new branch. Rewinding to a message of another
   * branch switches to it. Calls on this session made before the Promise settles wait for it.
   */
  async rewind(toUuid: string): Promise<void> {
    return native.rewind(this.#h, toUuid);
  }

  /**
   * fork makes a new session sharing this one's history up to the main-chain message
   * `fromUuid` (the head, by default), and opens it. The new session's info names where it
   * came from (`forkedFrom`); this one is left as it is.
   */
  async fork(fromUuid?: string): Promise<Session> {
    const [h, id] = await native.fork(this.#h, fromUuid);
    return new Session(h, id);
  }

  /**
   * snapshotFiles records the files at `paths` (relative to `options.root`, or absolute inside
   * it) as they are now, at a message (the head, by default): present ones with their hash,
   * mode and content, missing ones as deleted. A path outside the root throws PATH_ESCAPE.
   */
  async snapshotFiles(paths: string[], options: SnapshotFilesOptions = {}): Promise<FileSnapshot> {
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) {
      throw argTypeError('paths', 'an array of strings');
    }
    if (typeof options !== 'object' || options === null) {
      throw argTypeError('options', 'an object');
    }
    return JSON.parse(await native.snapshotFiles(this.#h, encode(paths), encode(options)));
  }

  /** fileSnapshots lists the session's file snapshots (of one message, when given), oldest first, without content. */
  fileSnapshots(messageUuid?: string): FileSnapshot[] {
    return JSON.parse(native.fileSnapshots(this.#h, messageUuid));
  }

  /** fileSnapshotsAsync is fileSnapshots() read off the JS thread. */
  async fileSnapshotsAsync(messageUuid?: string): Promise<FileSnapshot[]> {
    return JSON.parse(await native.fileSnapshotsAsync(this.#h, messageUuid));
  }

  /**
   * fileContent returns the content of file `path` (as fileSnapshots() lists it) as snapshot
   * `snapshotId` recorded it; null when the snapshot records it as deleted. Throws
   * SNAPSHOT_NOT_FOUND for a snapshot the session does not hold, FILE_NOT_FOUND for a path it
   * does not track, BACKUP_MISSING for a file recorded without its content. Nothing is written.
   */
  fileContent(snapshotId: string, path: string): Buffer | null {
    return native.fileContent(this.#h, snapshotId, path);
  }

  /** fileContentAsync is fileContent() read off the JS thread. */
  async fileContentAsync(snapshotId: string, path: string): Promise<Buffer | null> {
    return native.fileContentAsync(this.#h, snapshotId, path);
  }

  /**
   * restoreFiles puts files back as they were at message `messageUuid` into `options.into`.
   * Every path is checked first: one that would lead outside `into` (absolute, `..`, a
   * symbolic link pointing out) throws PATH_ESCAPE and nothing is written.
   */
  async restoreFiles(messageUuid: string, options: RestoreFilesOptions): Promise<RestoreFilesResult> {
    if (typeof options !== 'object' || options === null || typeof options.into !== 'string') {
      throw argTypeError('options', 'an object with an "into" folder');
    }
    return JSON.parse(await native.restoreFiles(this.#h, messageUuid, encode(options)));
  }
}

/**
 * withUserMessage completes the envelope native code returned for a user message with the
 * message itself, built from the JSON that was recorded. It is parsed when first read: a
 * caller that records a large tool output and ignores the envelope never pays for parsing
 * it back. An envelope that has its message (redaction changed it) is the message as stored.
 */
function withUserMessage(envelope: Envelope, content: string | Block[], json: string, strings: string[] | undefined): Envelope {
  if (envelope.message !== undefined) return envelope;
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
