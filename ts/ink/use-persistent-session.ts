import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CreateSessionOptions, Envelope, Session, Store, StreamChunk } from '../index.js';
import { SessionOwner, initialSnapshot, type SessionSnapshot } from './session-owner.js';

export interface UsePersistentSessionOptions {
  /** The store the session lives in. */
  store: Store;
  /**
   * The session to open (to resume it). Without one, a new session is created on the first
   * write, so starting the app and quitting leaves no empty session behind. Changing it
   * closes the session held and opens the other.
   */
  sessionId?: string | null;
  /** Options for the session created when there is no `sessionId`. */
  create?: CreateSessionOptions;
  /** How soon after a write (and how often during `run()`) the session is read back, in ms. Default 50. */
  refreshMs?: number;
}

export interface PersistentSession extends SessionSnapshot {
  /** Records a user prompt or tool results given as blocks; see `Session.appendUserMessage`. */
  appendUserMessage(...args: Parameters<Session['appendUserMessage']>): Envelope;
  /** Records one stream chunk; see `Session.ingest`. Throws as it does (`INVALID_CHUNK`, …). */
  ingest(chunk: StreamChunk): void;
  /**
   * Gives the session to `work` (for a stream adapter that writes to it itself) and keeps
   * `messages` fresh while the work runs. Status is 'streaming' until it settles.
   */
  run<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /**
   * Reads the whole session again, for changes made without the hook (`session.rewind()`);
   * resolves once they are shown.
   */
  refresh(): Promise<void>;
  /** Resolves once everything written so far is on disk. */
  flush(): Promise<void>;
}

const DEFAULT_REFRESH_MS = 50;

/**
 * usePersistentSession owns a session for a component: it opens the session named by
 * `sessionId` (or creates one on the first write), records what the component writes,
 * exposes the stored messages, envelopes, token usage and status, and closes the session
 * when the component unmounts (a message still streaming is then marked interrupted).
 */
export function usePersistentSession(options: UsePersistentSessionOptions): PersistentSession {
  const { store, sessionId = null, refreshMs = DEFAULT_REFRESH_MS } = options;
  const createOptions = useRef(options.create);
  createOptions.current = options.create;

  const owner = useRef<SessionOwner | null>(null);
  const [snapshot, setSnapshot] = useState<SessionSnapshot>(() => initialSnapshot(sessionId));

  useEffect(() => {
    const o = new SessionOwner({ store, sessionId, refreshMs, createOptions: () => createOptions.current, publish: setSnapshot });
    owner.current = o;
    setSnapshot(o.snapshot);
    o.start();
    return () => {
      o.close();
      if (owner.current === o) owner.current = null;
    };
  }, [store, sessionId, refreshMs]);

  const current = useCallback((): SessionOwner => {
    if (!owner.current) throw new Error('usePersistentSession: the session is not open (the component has not mounted, or has unmounted)');
    return owner.current;
  }, []);
  const appendUserMessage = useCallback((...args: Parameters<Session['appendUserMessage']>) => current().appendUserMessage(...args), [current]);
  const ingest = useCallback((chunk: StreamChunk) => current().ingest(chunk), [current]);
  const run = useCallback(<T>(work: (session: Session) => Promise<T>) => current().run(work), [current]);
  const refresh = useCallback(() => current().refresh(), [current]);
  const flush = useCallback(() => current().flush(), [current]);

  return useMemo(
    () => ({ ...snapshot, appendUserMessage, ingest, run, refresh, flush }),
    [snapshot, appendUserMessage, ingest, run, refresh, flush],
  );
}
