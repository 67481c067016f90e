import { createHash } from 'node:crypto';
import type { SessionKey, SessionStore, SessionStoreEntry, SessionSummaryEntry } from '@anthropic-ai/claude-agent-sdk' with { 'resolution-mode': 'import' };
import { Store, storeHandle } from '../store';
import { SessionError, argTypeError } from '../errors';
import { native } from '../native';
import { oneAtATime } from '../one-at-a-time';
import { isObject } from './common';

type FoldSessionSummary = typeof import('@anthropic-ai/claude-agent-sdk', { with: { 'resolution-mode': 'import' } }).foldSessionSummary;

/** What appendTranscriptPart reports. */
interface PartAppend {
  Created: boolean;
  Added: number;
  Existing: number;
  /** When the session was last updated after the append, in Unix milliseconds. */
  updatedAt: number;
}

/**
 * SessionkeepSessionStore is a `SessionStore` of the Claude Agent SDK
 * (`query({ prompt, options: { sessionStore } })`, `importSessionToStore()`,
 * `getSessionMessages()`, `listSessions()` …) whose transcripts are sessionkeep sessions
 * of `store`, SQLite or PostgreSQL. Each main key's transcript is one session, in the
 * project `projectKey`, with the SDK's session id as its `sdkSessionId`; its lines are
 * imported as `store.import()` imports a Claude Code transcript, so `messages()`, the token
 * tracker, search, the viewer and `buildContext()` see it, and a subagent's transcript
 * (a `subpath` key) is kept in the same session as its sidechain. `load()` gives back every
 * line deep-equal, in the order appended. A line's `uuid` is its idempotency key; a line
 * without one gets one made from its content and its place in the batch, so a batch
 * appended again (the SDK's retry, a second `importSessionToStore()`) adds nothing.
 */
export class SessionkeepSessionStore implements SessionStore {
  /** The summary each session's main transcript folds to, by session id, as of its mtime. */
  readonly #summaries = new Map<string, SessionSummaryEntry>();
  /** The appends under way, by session id: one at a time, in call order. */
  readonly #queues = new Map<string, Promise<void>>();
  #fold: Promise<FoldSessionSummary> | undefined;

  constructor(readonly store: Store) {
    if (!(store instanceof Store)) throw argTypeError('store', 'a Store from openStore()');
  }

  /**
   * sessionId is the id of the sessionkeep session that holds key's transcript, for
   * `store.openSession()`: the same for every subpath of a session, different for each
   * projectKey.
   */
  sessionId(key: { projectKey: string; sessionId: string }): string {
    checkKey(key);
    const h = createHash('sha256').update(`claude-agent-sdk\n${key.projectKey}\n${key.sessionId}`).digest('hex');
    // A UUID of version 8 (made by the application), RFC 4122 variant.
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /**
   * append stores the entries under key, after those appended before, and resolves once
   * they are durable. The work runs off the JS thread; appends to one session run one at
   * a time, in call order. An entry that is not an object with a string `type` rejects the
   * batch with INVALID_ARGUMENT before anything is stored.
   */
  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    checkKey(key);
    if (!Array.isArray(entries)) throw argTypeError('entries', 'an array of transcript entries');
    entries.forEach((e, i) => {
      if (!isObject(e) || typeof e.type !== 'string') {
        throw new SessionError(`entry ${i + 1} is not a transcript line: an object with a string "type" is.`, 'INVALID_ARGUMENT');
      }
    });
    if (entries.length === 0) return;
    const id = this.sessionId(key);
    const lines = entries.map((e) => JSON.stringify(e)).join('\n');
    await this.#inTurn(id, async () => {
      const target = { id, project: key.projectKey, sdkSessionId: key.sessionId, subpath: key.subpath ?? '' };
      const done: PartAppend = JSON.parse(await native.appendTranscriptPart(storeHandle(this.store), JSON.stringify(target), lines));
      if (key.subpath !== undefined || done.Added === 0) return;
      const prev = this.#summaries.get(id);
      // Folded on from the summary it had, or from nothing for a session this append began;
      // otherwise folded again from what is stored when next listed.
      if (done.Existing === 0 && (prev !== undefined || done.Created)) {
        const fold = await this.#foldFunction();
        this.#summaries.set(id, fold(prev, key, entries, { mtime: done.updatedAt }));
      } else {
        this.#summaries.delete(id);
      }
    });
  }

  /** load gives the entries appended under key, in order; null for a key never written. */
  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    checkKey(key);
    const text = await native.loadTranscriptPart(storeHandle(this.store), this.sessionId(key), key.subpath ?? '');
    if (text === null) return null;
    return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  }

  /** listSessions lists the sessions of projectKey with a main transcript, with when each was last stored to. */
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return (await this.#sessionsOf(projectKey)).map(({ sessionId, mtime }) => ({ sessionId, mtime }));
  }

  /**
   * listSessionSummaries gives the SDK's summary of each session of projectKey, folded with
   * its `foldSessionSummary` as entries are appended, stamped with the same mtime as
   * listSessions(). A session appended to by another process since is folded again from
   * its stored entries.
   */
  async listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]> {
    const out: SessionSummaryEntry[] = [];
    for (const s of await this.#sessionsOf(projectKey)) {
      let summary = this.#summaries.get(s.id);
      if (summary === undefined || summary.mtime !== s.mtime) {
        summary = await this.#inTurn(s.id, async () => {
          const key = { projectKey, sessionId: s.sessionId };
          const entries = (await this.load(key)) ?? [];
          const folded = (await this.#foldFunction())(undefined, key, entries, { mtime: s.mtime });
          this.#summaries.set(s.id, folded);
          return folded;
        });
      }
      out.push(summary);
    }
    return out;
  }

  /**
   * delete deletes key's session for good, with the transcripts of all its subpaths. Only a
   * whole session is deleted: a key with a subpath rejects with INVALID_ARGUMENT. A session
   * never written is nothing to delete.
   */
  async delete(key: SessionKey): Promise<void> {
    checkKey(key);
    if (key.subpath !== undefined) {
      throw new SessionError('sessionkeep deletes a whole session: call delete() with the main key (no subpath).', 'INVALID_ARGUMENT');
    }
    const id = this.sessionId(key);
    await this.#inTurn(id, async () => {
      this.#summaries.delete(id);
      try {
        await this.store.deleteSessionAsync(id);
      } catch (err) {
        if (!(err instanceof SessionError && err.code === 'SESSION_NOT_FOUND')) throw err;
      }
    });
  }

  /** listSubkeys gives the subpaths written under a session (its subagents' transcripts). */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    return JSON.parse(await native.transcriptParts(storeHandle(this.store), this.sessionId(key)));
  }

  /** The sessions of projectKey this store wrote a main transcript of. */
  async #sessionsOf(projectKey: string): Promise<Array<{ id: string; sessionId: string; mtime: number }>> {
    if (typeof projectKey !== 'string' || projectKey === '') throw argTypeError('projectKey', 'a non-empty string');
    const infos = await this.store.listSessionsAsync({ projectPath: projectKey, includeArchived: true, fields: ['id', 'sdkSessionId', 'updatedAt'] });
    const out: Array<{ id: string; sessionId: string; mtime: number }> = [];
    for (const info of infos) {
      const sessionId = info.sdkSessionId;
      if (typeof sessionId !== 'string' || sessionId === '' || info.id !== this.sessionId({ projectKey, sessionId })) continue;
      out.push({ id: info.id!, sessionId, mtime: Date.parse(info.updatedAt!) });
    }
    return out;
  }

  /** #inTurn runs fn after the work queued for session id before it. */
  #inTurn<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return oneAtATime(this.#queues, id, fn);
  }

  /** The SDK's foldSessionSummary, loaded at its first use (the SDK is an ES module). */
  #foldFunction(): Promise<FoldSessionSummary> {
    this.#fold ??= importESM('@anthropic-ai/claude-agent-sdk').then((sdk) => sdk.foldSessionSummary as FoldSessionSummary);
    return this.#fold;
  }
}

/**
 * importESM imports an ES module from this CommonJS package: TypeScript would turn a plain
 * import() into require(), which Node before 20.19 cannot do for an ES module.
 */
const importESM = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** checkKey throws a TypeError for a key that is not a SessionKey. */
function checkKey(key: unknown): asserts key is SessionKey {
  if (!isObject(key) || typeof key.projectKey !== 'string' || key.projectKey === '' || typeof key.sessionId !== 'string' || key.sessionId === '') {
    throw argTypeError('key', 'a SessionKey: { projectKey, sessionId } as non-empty strings, and an optional subpath');
  }
  if (key.subpath !== undefined && (typeof key.subpath !== 'string' || key.subpath === '')) {
    throw argTypeError('key.subpath', 'a non-empty string, or left out for the main transcript');
  }
}
