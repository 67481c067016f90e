import type { CreateSessionOptions, Envelope, Message, Session, Store, StreamChunk, TokenTracker } from '../index.js';

/** What a component sees of the session it owns; a new object on every change. */
export interface SessionSnapshot {
  /** The session; null until it is opened, or, for a new one, until the first write creates it. */
  session: Session | null;
  sessionId: string | null;
  envelopes: Envelope[];
  messages: Message[];
  tokenUsage: TokenTracker;
  /**
   * 'loading' while a session being opened is first read; 'streaming' while its last message
   * is still being written or a `run()` is under way; 'error' when opening or reading failed
   * (see `error`); 'idle' otherwise.
   */
  status: 'loading' | 'idle' | 'streaming' | 'error';
  error: Error | null;
}

export const EMPTY_USAGE: TokenTracker = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  contextTokens: 0,
});

/** initialSnapshot is what a component shows before its session is open. */
export function initialSnapshot(sessionId: string | null): SessionSnapshot {
  return {
    session: null,
    sessionId,
    envelopes: [],
    messages: [],
    tokenUsage: EMPTY_USAGE,
    status: sessionId ? 'loading' : 'idle',
    error: null,
  };
}

export interface SessionOwnerOptions {
  store: Store;
  sessionId?: string | null;
  /** Read at the moment a new session is created, so the latest options apply. */
  createOptions: () => CreateSessionOptions | undefined;
  refreshMs: number;
  publish: (snapshot: SessionSnapshot) => void;
}

/**
 * SessionOwner holds one session for one component: it opens or creates it, writes to it,
 * re-reads what the store holds after writes, and closes it. Everything is written to the
 * session first (so it is durable whatever the UI does) and read back from it, so the
 * component shows exactly what is stored — never a copy that could drift.
 *
 * Re-reads are coalesced: at most one is in flight, and writes during it cause one more.
 * While one message streams only that message is read again (`lastEnvelope`), so a reply
 * streaming into a long session costs what it costs in a short one; the whole session is
 * read when a message begins. Reads run off the JS thread.
 */
export class SessionOwner {
  readonly #o: SessionOwnerOptions;
  #session: Session | null = null;
  #snapshot: SessionSnapshot;
  #closed = false;
  #running = 0;
  #poll: ReturnType<typeof setInterval> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #reading = false;
  #dirty = false;
  /** A refresh() asked for the whole session to be read; its callers wait on the read. */
  #readAllNext = false;
  #refreshed: (() => void)[] = [];

  constructor(options: SessionOwnerOptions) {
    this.#o = options;
    this.#snapshot = initialSnapshot(options.sessionId ?? null);
  }

  get snapshot(): SessionSnapshot {
    return this.#snapshot;
  }

  /** start opens the session named by `sessionId`, if any, and reads it. */
  start(): void {
    const id = this.#o.sessionId;
    if (!id) return this.#publish({});
    try {
      this.#session = this.#o.store.openSession(id);
    } catch (err) {
      return this.#publish({ error: asError(err) });
    }
    this.#publish({ session: this.#session });
    void this.#read();
  }

  appendUserMessage(...args: Parameters<Session['appendUserMessage']>): Envelope {
    const envelope = this.#open().appendUserMessage(...args);
    this.#schedule(0);
    return envelope;
  }

  ingest(chunk: StreamChunk): void {
    this.#open().ingest(chunk);
    this.#schedule(this.#o.refreshMs);
  }

  /**
   * run hands the session to `work`, which may write to it directly (a stream adapter does),
   * and keeps re-reading it every refreshMs until the work settles.
   */
  async run<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = this.#open();
    if (this.#running++ === 0) {
      this.#poll = setInterval(() => this.#schedule(0), this.#o.refreshMs);
      this.#publish({});
    }
    try {
      return await work(session);
    } finally {
      if (--this.#running === 0 && this.#poll) {
        clearInterval(this.#poll);
        this.#poll = null;
      }
      this.#schedule(0);
    }
  }

  /**
   * refresh reads the whole session again, for changes made to it without the hook (a
   * rewind() moves the head without writing a message). It resolves once they are shown.
   */
  refresh(): Promise<void> {
    if (!this.#session || this.#closed) return Promise.resolve();
    this.#readAllNext = true;
    const shown = new Promise<void>((resolve) => this.#refreshed.push(resolve));
    this.#schedule(0);
    return shown;
  }

  async flush(): Promise<void> {
    if (this.#session) await this.#session.flush();
  }

  /** close releases the session; a message still streaming is kept and marked interrupted. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#timer) clearTimeout(this.#timer);
    for (const resolve of this.#refreshed.splice(0)) resolve();
    this.#session?.close();
  }

  /** #open returns the session, creating it on the first write when none was named. */
  #open(): Session {
    if (this.#closed) throw new Error('usePersistentSession: the component owning this session has unmounted');
    if (this.#session) return this.#session;
    if (this.#o.sessionId) {
      throw this.#snapshot.error ?? new Error(`usePersistentSession: session ${this.#o.sessionId} is not open`);
    }
    this.#session = this.#o.store.createSession(this.#o.createOptions());
    this.#publish({ session: this.#session, sessionId: this.#session.id });
    return this.#session;
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    this.#dirty = true;
    if (this.#timer || this.#reading) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#read();
    }, delayMs);
  }

  async #read(): Promise<void> {
    const session = this.#session;
    if (!session || this.#closed) return;
    this.#dirty = false;
    this.#reading = true;
    const all = this.#readAllNext;
    const waiting = this.#refreshed.splice(0);
    this.#readAllNext = false;
    try {
      const change = (all ? null : await this.#readTail(session)) ?? (await this.#readAll(session));
      if (this.#closed) return;
      this.#publish({ ...change, tokenUsage: session.tokenTracker(), loaded: true });
    } catch (err) {
      if (!this.#closed) this.#publish({ error: asError(err) });
    } finally {
      this.#reading = false;
      for (const resolve of waiting) resolve();
      if (this.#dirty) this.#schedule(this.#o.refreshMs);
    }
  }

  /**
   * #readTail reads only the last message, when that is all that can have changed: it is the
   * message last seen, growing as it streams. Messages are never rewritten, and the one
   * before changes (ends) only when a new one begins, which shows as a new last message.
   */
  async #readTail(session: Session): Promise<Pick<SessionSnapshot, 'envelopes' | 'messages'> | null> {
    const { envelopes, messages, status } = this.#snapshot;
    const seen = envelopes.at(-1);
    if (status === 'loading' || !seen || !isPlainMessage(seen)) return null;
    const last = await session.lastEnvelope();
    if (!last || last.uuid !== seen.uuid || !isPlainMessage(last)) return null;
    return { envelopes: [...envelopes.slice(0, -1), last], messages: [...messages.slice(0, -1), last.message!] };
  }

  /**
   * #readAll reads the whole session. messages are read, not derived from envelopes: the
   * session decides what they are (sidechains left out, records of one message joined).
   */
  async #readAll(session: Session): Promise<Pick<SessionSnapshot, 'envelopes' | 'messages'>> {
    const [envelopes, messages] = await Promise.all([session.envelopesAsync(), session.messagesAsync()]);
    return { envelopes, messages };
  }

  #publish(change: Partial<SessionSnapshot> & { loaded?: boolean }): void {
    const { loaded, ...fields } = change;
    const next = { ...this.#snapshot, ...fields };
    if (loaded) next.error = null;
    next.status = statusOf(next, this.#running > 0, loaded === true || this.#snapshot.status !== 'loading');
    this.#snapshot = next;
    this.#o.publish(next);
  }
}

/** isPlainMessage is whether the envelope is its own message of the main conversation, last in messages() when last. */
function isPlainMessage(e: Envelope): boolean {
  return e.message !== undefined && !e.isSidechain && !e.continuesPrevious;
}

function statusOf(s: SessionSnapshot, running: boolean, loaded: boolean): SessionSnapshot['status'] {
  if (s.error) return 'error';
  if (!loaded) return 'loading';
  if (running || s.envelopes.at(-1)?.status === 'streaming') return 'streaming';
  return 'idle';
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
