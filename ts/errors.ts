/**
 * SessionError is the one error class sessionkeep throws for everything but wrong argument
 * types (those are TypeError). Native code creates it, so every error carries a stable
 * `code` that programs can branch on; `message` says what was wrong and what to do.
 *
 * Codes: SESSION_NOT_FOUND, SESSION_NOT_EMPTY, STORE_CLOSED, INVALID_CHUNK,
 * UNKNOWN_TOOL_USE, INVALID_MESSAGE, INVALID_ARGUMENT, FILE_ERROR, CONTEXT_BUDGET_TOO_SMALL,
 * INVALID_CONTEXT, MESSAGE_NOT_FOUND, PATH_ESCAPE, SNAPSHOT_NOT_FOUND, FILE_NOT_FOUND, BACKUP_MISSING,
 * STRATEGY_FAILED (a strategy given to registerStrategy failed), SQLITE_BUSY,
 * STORE_CORRUPT, DISK_FULL, READ_ONLY, STORE_GONE, SESSION_CONFLICT, HISTORY_CONFLICT (an OpenAI Agents
 * history transaction the history does not allow), STORAGE_ERROR, TOO_DEEP, INTERNAL; when the
 * package loads: ADDON_NOT_FOUND, ADDON_LOAD_FAILED, ADDON_UNSUPPORTED (see loader.ts).
 */
export class SessionError extends Error {
  readonly code: string;

  constructor(message: string, code: string) {
    super(message);
    this.name = 'SessionError';
    this.code = code;
  }
}

/**
 * argTypeError is the TypeError for an argument of the wrong type, with the same code and
 * wording as the ones native code throws.
 */
export function argTypeError(name: string, want: string): TypeError {
  return Object.assign(new TypeError(`The "${name}" argument must be ${want}.`), { code: 'ERR_INVALID_ARG_TYPE' });
}
