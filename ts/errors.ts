/**
 * SessionErrorCode is every code a SessionError carries; docs/api.md says when each is thrown,
 * and test 165 checks this list against the Go sources and the docs.
 */
export type SessionErrorCode =
  // Finding and addressing sessions.
  | 'SESSION_NOT_FOUND'
  | 'AMBIGUOUS_ID'
  | 'WORKSPACE_REQUIRED'
  | 'SESSION_CORRUPT'
  | 'SESSION_NOT_EMPTY'
  | 'STORE_CLOSED'
  // Ingesting and restoring.
  | 'INVALID_CHUNK'
  | 'UNKNOWN_TOOL_USE'
  | 'INVALID_MESSAGE'
  | 'INVALID_ARGUMENT'
  | 'TOO_DEEP'
  // Branches and file snapshots.
  | 'MESSAGE_NOT_FOUND'
  | 'PATH_ESCAPE'
  | 'SNAPSHOT_NOT_FOUND'
  | 'BACKUP_MISSING'
  | 'FILE_NOT_FOUND'
  | 'FILE_ERROR'
  // Context building.
  | 'CONTEXT_BUDGET_TOO_SMALL'
  | 'INVALID_CONTEXT'
  | 'STRATEGY_FAILED'
  // The storage underneath.
  | 'SQLITE_BUSY'
  | 'STORE_CORRUPT'
  | 'STORE_DAMAGED'
  | 'DISK_FULL'
  | 'READ_ONLY'
  | 'STORE_GONE'
  | 'STORE_UNAVAILABLE'
  | 'SESSION_CONFLICT'
  | 'STORAGE_ERROR'
  | 'UNSUPPORTED'
  // The agent SDKs' plug-ins: an OpenAI Agents history transaction the history does not allow.
  | 'HISTORY_CONFLICT'
  // Loading the addon (see loader.ts).
  | 'ADDON_NOT_FOUND'
  | 'ADDON_LOAD_FAILED'
  | 'ADDON_UNSUPPORTED'
  // A bug in sessionkeep.
  | 'INTERNAL';

/**
 * SessionError is the one error class sessionkeep throws for everything but wrong argument
 * types (those are TypeError, code ERR_INVALID_ARG_TYPE). Native code creates it, so every
 * error carries a stable `code` that programs can branch on; `message` says what was wrong
 * and what to do; `cause`, when set, is the error that led to it.
 */
export class SessionError extends Error {
  readonly code: SessionErrorCode;

  constructor(message: string, code: SessionErrorCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionError';
    this.code = code;
  }
}

/** ArgTypeError is the shape of every TypeError sessionkeep throws for an argument. */
export type ArgTypeError = TypeError & { code: 'ERR_INVALID_ARG_TYPE' };

/**
 * argTypeError is the TypeError for an argument of the wrong type, with the same code and
 * wording as the ones native code throws.
 */
export function argTypeError(name: string, want: string): ArgTypeError {
  return Object.assign(new TypeError(`The "${name}" argument must be ${want}.`), { code: 'ERR_INVALID_ARG_TYPE' as const });
}
