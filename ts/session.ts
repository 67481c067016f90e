import { argTypeError } from './errors';
import { native, Handle } from './native';
import { ingestChunk } from './ingest';
import { toJSON } from './serialize';
import type { Block, Envelope, Message, StreamChunk, TokenTracker, Turn } from './types';
import type { PriceOptions, ResumeSummary, ResumeSummaryOptions, SessionDetails } from './management-types';
import { optionsJSON } from './options';
import { resumeSummary } from './resume-summary';
import type { MessageContext, MessageOptions } from './message-state';
import type { SessionTree } from './branches';
import type { FileSnapshot, RestoreFilesOptions, RestoreFilesResult, SnapshotFilesOptions } from './file-snapshots';

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
    return JSON.parse(await native.snapshotFiles(this.#h, JSON.stringify(paths), JSON.stringify(options)));
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
   * restoreFiles puts files back as they were at message `messageUuid` into `options.into`.
   * Every path is checked first: one that would lead outside `into` (absolute, `..`, a
   * symbolic link pointing out) throws PATH_ESCAPE and nothing is written.
   */
  async restoreFiles(messageUuid: string, options: RestoreFilesOptions): Promise<RestoreFilesResult> {
    if (typeof options !== 'object' || options === null || typeof options.into !== 'string') {
      throw argTypeError('options', 'an object with an "into" folder');
    }
    return JSON.parse(await native.restoreFiles(this.#h, messageUuid, JSON.stringify(options)));
  }
}
