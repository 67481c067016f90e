import * as nodePath from 'node:path';
import { argTypeError, SessionError } from './errors';
import { encode } from './serialize';
import { native, Handle } from './native';
import { disposeSymbol } from './dispose';
import { onFirstUse } from './lazy';
import { Session } from './session';
import { optionsJSON } from './options';
import { redactJSON, RedactOptions } from './redact';
import { trackStore, untrackStore } from './shutdown';
import { watchWriteErrors } from './write-errors';
import type { CreateSessionOptions, ListSessionsOptions, SessionInfo } from './types';
import type { ExportOptions, ImportOptions, ImportResult } from './interop-types';
import type { MigrateOptions, MigrateResult } from './migrate-types';
import type { VerifyOptions, VerifyReport } from './verify-types';
import type {
  RecoveredSession, SearchHit, SearchOptions, SessionByKeyOptions, Stats, StatsOptions, WorkspaceStoreOptions,
} from './management-types';

// The code that makes a listing's sessions from its parts loads at the first listing.
const listing = onFirstUse(() => require('./listing') as typeof import('./listing'));

/** The handle of a Store, for the package's own plug-ins; set once the class is defined. */
let handleOf: (store: Store) => Handle;

/** @internal storeHandle gives the native handle of store, for the package's plug-ins. */
export function storeHandle(store: Store): Handle {
  return handleOf(store);
}

/**
 * Store is one sessionkeep database: a SQLite file in WAL mode. Open it with openStore().
 */
export class Store {
  /** The database file's path. */
  readonly path: string;
  /** The workspace this store holds, when opened with openWorkspaceStore(). */
  readonly workspace: string | undefined;
  readonly #h: Handle;
  static {
    handleOf = (store) => store.#h;
  }
  #stopWatching: (() => void) | undefined;

  /** A store comes from openStore() or openWorkspaceStore(). */
  private constructor(handle: Handle, path: string, workspace?: string) {
    this.#h = handle;
    this.path = path;
    this.workspace = workspace;
  }

  /** createSession starts a new, empty session. */
  createSession(options: CreateSessionOptions = {}): Session {
    if (typeof options !== 'object' || options === null) {
      throw argTypeError('options', 'an object');
    }
    const opts = { ...options, projectPath: options.projectPath ?? process.cwd() };
    const [h, id] = native.createSession(this.#h, encode(opts));
    return new Session(h, id);
  }

  /** openSession opens a session by id; throws SessionError SESSION_NOT_FOUND when there is none. */
  openSession(id: string): Session {
    const [h, sid] = native.openSession(this.#h, id);
    return new Session(h, sid);
  }

  /**
   * listSessions lists sessions newest first, optionally of one project and at most `limit`;
   * with `fields`, each listing holds only those fields.
   */
  listSessions<K extends keyof SessionInfo>(options: ListSessionsOptions & { fields: readonly K[] }): Pick<SessionInfo, K>[];
  listSessions(options?: ListSessionsOptions): SessionInfo[];
  listSessions(options: ListSessionsOptions = {}): Partial<SessionInfo>[] {
    return listing.listingFromParts(native.listSessions(this.#h, optionsJSON(options)));
  }

  /**
   * latestSession opens the session of `projectPath` written to last, archived sessions left
   * out: what `--continue` resumes. null when the project has none.
   */
  latestSession(projectPath: string = process.cwd()): Session | null {
    const found = native.latestSession(this.#h, projectPath);
    return found ? new Session(found[0], found[1]) : null;
  }

  /**
   * findSession opens the session whose id is `idOrPrefix`, or the one session whose id starts
   * with it: what `--resume <id>` resumes. Throws SESSION_NOT_FOUND when none does, and
   * AMBIGUOUS_ID, naming them, when several do.
   */
  findSession(idOrPrefix: string): Session {
    const [h, id] = native.findSession(this.#h, idOrPrefix);
    return new Session(h, id);
  }

  /** listSessionsAsync is listSessions() read off the JS thread, for long listings. */
  listSessionsAsync<K extends keyof SessionInfo>(options: ListSessionsOptions & { fields: readonly K[] }): Promise<Pick<SessionInfo, K>[]>;
  listSessionsAsync(options?: ListSessionsOptions): Promise<SessionInfo[]>;
  async listSessionsAsync(options: ListSessionsOptions = {}): Promise<Partial<SessionInfo>[]> {
    return listing.listingFromParts(await native.listSessionsAsync(this.#h, optionsJSON(options)));
  }

  /** renameSession sets a session's title; its first prompt no longer names it. */
  renameSession(id: string, title: string): void {
    native.renameSession(this.#h, id, title);
  }

  /** archiveSession hides a session from listings and latestSession() until unarchived or written to. */
  archiveSession(id: string): void {
    native.archiveSession(this.#h, id);
  }

  /** unarchiveSession lists an archived session again. */
  unarchiveSession(id: string): void {
    native.unarchiveSession(this.#h, id);
  }

  /** deleteSession deletes a session and everything it holds, for good. Nothing else ever deletes. */
  deleteSession(id: string): void {
    native.deleteSession(this.#h, id);
  }

  /** deleteSessionAsync is deleteSession() run off the JS thread, for large sessions. */
  async deleteSessionAsync(id: string): Promise<void> {
    return native.deleteSessionAsync(this.#h, id);
  }

  /**
   * moveProject moves the sessions of a project, and of the folders inside it, to its new
   * path, and returns how many moved. Sessions are keyed by id and keep everything else.
   */
  moveProject(oldPath: string, newPath: string): number {
    return JSON.parse(native.moveProject(this.#h, oldPath, newPath));
  }

  /** moveProjectAsync is moveProject() run off the JS thread: it reads every session's path. */
  async moveProjectAsync(oldPath: string, newPath: string): Promise<number> {
    return JSON.parse(await native.moveProjectAsync(this.#h, oldPath, newPath));
  }

  /**
   * sessionByKey opens the session of a hosted agent's key, `workspace:channel:handle` (on a
   * workspace store, `channel:handle` will do). When none has the key, it creates one with
   * `{ create: true }` and returns null otherwise. A key without a workspace throws
   * WORKSPACE_REQUIRED.
   */
  sessionByKey(key: string, options: SessionByKeyOptions = {}): Session | null {
    const found = native.sessionByKey(this.#h, key, this.workspace, optionsJSON(options));
    return found ? new Session(found[0], found[1]) : null;
  }

  /**
   * search finds the messages of every session (of one project with `projectPath`) whose
   * text contains every word of `text`, as a word or the start of one, best match first
   * (SQLite FTS5). Text, tool calls and tool results are searched; thinking is not.
   */
  search(text: string, options: SearchOptions = {}): SearchHit[] {
    return JSON.parse(native.search(this.#h, searchJSON(text, options)));
  }

  /** searchAsync is search() run off the JS thread. */
  async searchAsync(text: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    return JSON.parse(await native.searchAsync(this.#h, searchJSON(text, options)));
  }

  /** stats sums token usage by day and model over every session, priced by the built-in list prices under `prices`. */
  stats(options: StatsOptions = {}): Stats {
    return JSON.parse(native.stats(this.#h, statsJSON(options)));
  }

  /** statsAsync is stats() run off the JS thread. */
  async statsAsync(options: StatsOptions = {}): Promise<Stats> {
    return JSON.parse(await native.statsAsync(this.#h, statsJSON(options)));
  }

  /**
   * verify checks the whole store (SQLite only): the file's integrity, each full-text index
   * against its content, every body, every blob and reference, each session's counts and
   * tree, the WAL's size. { repair: true } first rebuilds the indexes and counts; it never
   * deletes a message.
   */
  async verify(options: VerifyOptions = {}): Promise<VerifyReport> {
    return JSON.parse(await native.verifyAsync(this.#h, JSON.stringify({ repair: options.repair === true })));
  }

  /**
   * recovered lists the sessions that opening this store found left open by a process that
   * is gone (it crashed or was killed) and marked interrupted, with how many of their
   * messages were cut off mid-stream.
   */
  recovered(): RecoveredSession[] {
    return JSON.parse(native.recoveredSessions(this.#h));
  }

  /**
   * sessionInfo returns the listing of the session whose id is `idOrPrefix`, or of the one
   * session whose id starts with it, without opening it. Throws as findSession() does.
   */
  sessionInfo(idOrPrefix: string): SessionInfo {
    return JSON.parse(native.resolveSession(this.#h, idOrPrefix));
  }

  /**
   * import reads transcripts (Claude Code, Codex CLI, or sessionkeep's own export) from a
   * file or a folder into this store, off the JS thread. Records keep their uuids, so
   * importing the same files again adds nothing; damaged lines are reported and skipped.
   */
  async import(path: string, options: ImportOptions = {}): Promise<ImportResult> {
    if (typeof path !== 'string' || path === '') throw argTypeError('path', 'a non-empty string');
    if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object');
    const { format, onProgress, fileHistoryDir } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw argTypeError('options.onProgress', 'a function');
    if (fileHistoryDir !== undefined && typeof fileHistoryDir !== 'string') throw argTypeError('options.fileHistoryDir', 'a string');
    let thrown: { error: unknown } | undefined;
    const report = onProgress && ((json: string) => {
      if (thrown) return;
      try {
        onProgress(JSON.parse(json));
      } catch (error) {
        thrown = { error };
      }
    });
    const result = await native.importTranscripts(this.#h, nodePath.resolve(path), encode({ format, fileHistoryDir: fileHistoryDir && nodePath.resolve(fileHistoryDir) }), report);
    if (thrown) throw thrown.error;
    return JSON.parse(result);
  }

  /**
   * migrateTo copies every session of this store (archived ones too) into `target`, off the
   * JS thread: records with their uuids, file snapshots, hosted-agent keys, checkpoints and
   * history, the head of a rewound session, cached summaries and compactions. It is
   * resumable: run again after an interruption, it copies only what `target` lacks.
   */
  async migrateTo(target: Store, options: MigrateOptions = {}): Promise<MigrateResult> {
    if (!(target instanceof Store)) throw argTypeError('target', 'a Store');
    if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object');
    const { onProgress } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw argTypeError('options.onProgress', 'a function');
    let thrown: { error: unknown } | undefined;
    const report = onProgress && ((json: string) => {
      if (thrown) return;
      try {
        onProgress(JSON.parse(json));
      } catch (error) {
        thrown = { error };
      }
    });
    const result = await native.migrateStore(this.#h, target.#h, report);
    if (thrown) throw thrown.error;
    return JSON.parse(result);
  }

  /**
   * export writes session id as a Claude Code transcript, sessionkeep's own JSONL or JSON,
   * or Markdown, off the JS thread: the text, or with `path`, the file (mode 0600).
   */
  async export(id: string, options: ExportOptions): Promise<string | undefined> {
    if (typeof id !== 'string') throw argTypeError('id', 'a string');
    if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object with a format');
    const { format, path } = options;
    if (path !== undefined && (typeof path !== 'string' || path === '')) throw argTypeError('options.path', 'a non-empty string');
    return native.exportSession(this.#h, id, encode({ format, path: path && nodePath.resolve(path) }));
  }

  /** flush resolves once everything recorded in any session of this store is durable. */
  async flush(): Promise<void> {
    return native.storeFlush(this.#h);
  }

  /** close ends unfinished messages as interrupted, flushes, and closes the database. */
  close(): void {
    untrackStore(this);
    this.#stopWatching?.();
    native.storeClose(this.#h);
  }

  /** [Symbol.dispose] closes the store at the end of a `using` block. */
  [disposeSymbol](): void {
    this.close();
  }

  /** @internal */
  static open(path?: string, workspace?: string, options: OpenStoreOptions = {}): Store {
    if (path !== undefined && typeof path !== 'string') {
      throw argTypeError('path', 'a string');
    }
    if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object');
    const { onError } = options;
    if (onError !== undefined && typeof onError !== 'function') throw argTypeError('options.onError', 'a function');
    const [h, resolved] = native.openStore(path, redactJSON(options.redact));
    const store = new Store(h, resolved, workspace);
    trackStore(store);
    if (onError) store.#stopWatching = watchWriteErrors(h, onError);
    return store;
  }
}


function searchJSON(text: string, options: SearchOptions): string {
  if (typeof text !== 'string') throw argTypeError('text', 'a string');
  optionsJSON(options);
  return encode({ ...options, text });
}

function statsJSON(options: StatsOptions): string {
  optionsJSON(options);
  const iso = (d: Date | string | undefined) => (d instanceof Date ? d.toISOString() : d);
  return encode({
    utcOffsetMinutes: -new Date().getTimezoneOffset(),
    ...options,
    since: iso(options.since),
    until: iso(options.until),
  });
}

/**
 * openWorkspaceStore opens (creating if needed) the store of one workspace of hosted agents:
 * workspace-<id>-sessions.db in `dir`, by default beside the default store. Its sessionByKey()
 * takes keys with or without the workspace.
 */
export function openWorkspaceStore(workspaceId: string, options: WorkspaceStoreOptions = {}): Store {
  if (typeof options !== 'object' || options === null) throw argTypeError('options', 'an object');
  const { dir, ...storeOptions } = options;
  return Store.open(native.workspaceStorePath(workspaceId, dir), workspaceId, storeOptions);
}

/** OpenStoreOptions are the options of openStore(). */
export interface OpenStoreOptions {
  /**
   * onError is called, on the JS thread, when queued writes start failing to commit: a
   * full disk (DISK_FULL), a read-only (READ_ONLY) or deleted (STORE_GONE) store, a lock
   * held past the bound (SQLITE_BUSY). Once per run of failures; the writes stay queued
   * in memory and are retried, and flush() rejects with the same error meanwhile.
   */
  onError?: (error: SessionError) => void;
  /** true: redact the built-in secrets; an object: see RedactOptions. Off by default. */
  redact?: boolean | RedactOptions;
}

/**
 * openStore opens (creating if needed) the store at path; the default is $SESSIONKEEP_DB,
 * else ~/.sessionkeep/sessions.db. options.redact replaces secrets in tool inputs and
 * outputs before they are stored (off by default).
 */
export function openStore(path?: string, options?: OpenStoreOptions): Store {
  return Store.open(path, undefined, options);
}
