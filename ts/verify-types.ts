/** VerifyProblem is one finding of store.verify(). */
export interface VerifyProblem {
  /**
   * INTEGRITY (SQLite's integrity_check), SEARCH_INDEX (a full-text index differs from its
   * content), BODY_UNREADABLE, BLOB_MISSING, BLOB_DAMAGED, BLOB_ORPHAN, COUNT_MISMATCH,
   * TREE_BROKEN (a message's parent is itself or comes after it), WAL_LARGE, CHECK_FAILED (a check
   * could not run to its end).
   */
  code: string;
  message: string;
  /** The session's id; absent for the file as a whole. */
  sessionId?: string;
  /** true when something stored is wrong; false for waste that loses nothing (BLOB_ORPHAN, WAL_LARGE). */
  damage: boolean;
}

/** VerifyReport is what store.verify() found. */
export interface VerifyReport {
  /** No problem that is damage. */
  ok: boolean;
  problems: VerifyProblem[];
  sessionCount: number;
  messageCount: number;
  blobCount: number;
  fileBytes: number;
  walBytes: number;
  /** What { repair: true } rebuilt before checking. */
  repaired: string[];
}

export interface VerifyOptions {
  /** Rebuild the full-text indexes and the sessions' counts first; never deletes a message. */
  repair?: boolean;
}
