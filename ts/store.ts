import { argTypeError } from './errors';
import { native, Handle } from './native';
import { Session } from './session';
import type { CreateSessionOptions, ListSessionsOptions, SessionInfo } from './types';

/** Stores still open, closed (and so flushed) when the process or worker exits. */
const open = new Set<Store>();
let exitHookInstalled = false;

function closeAllAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const store of open) store.close();
  });
}

/**
 * Store is one sessionkeep database: a SQLite file in WAL mode. Open it with openStore().
 */
export class Store {
  /** The database file's path. */
  readonly path: string;
  readonly #h: Handle;

  /** @internal */
  constructor(handle: Handle, path: string) {
    this.#h = handle;
    this.path = path;
  }

  /** createSession starts a new, empty session. */
  createSession(options: CreateSessionOptions = {}): Session {
    if (typeof options !== 'object' || options === null) {
      throw argTypeError('options', 'an object');
    }
    const opts = { ...options, projectPath: options.projectPath ?? process.cwd() };
    const [h, id] = native.createSession(this.#h, JSON.stringify(opts));
    return new Session(h, id);
  }

  /** openSession opens a session by id; throws SessionError SESSION_NOT_FOUND when there is none. */
  openSession(id: string): Session {
    const [h, sid] = native.openSession(this.#h, id);
    return new Session(h, sid);
  }

  /** listSessions lists sessions newest first, optionally of one project and at most `limit`. */
  listSessions(options: ListSessionsOptions = {}): SessionInfo[] {
    if (typeof options !== 'object' || options === null) {
      throw argTypeError('options', 'an object');
    }
    return JSON.parse(native.listSessions(this.#h, JSON.stringify(options)));
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

  /** flush resolves once everything recorded in any session of this store is durable. */
  async flush(): Promise<void> {
    return native.storeFlush(this.#h);
  }

  /** close ends unfinished messages as interrupted, flushes, and closes the database. */
  close(): void {
    open.delete(this);
    native.storeClose(this.#h);
  }

  /** @internal */
  static open(path?: string): Store {
    if (path !== undefined && typeof path !== 'string') {
      throw argTypeError('path', 'a string');
    }
    const [h, resolved] = native.openStore(path);
    const store = new Store(h, resolved);
    open.add(store);
    closeAllAtExit();
    return store;
  }
}

/**
 * openStore opens (creating if needed) the store at path; the default is $SESSIONKEEP_DB,
 * else ~/.sessionkeep/sessions.db.
 */
export function openStore(path?: string): Store {
  return Store.open(path);
}
