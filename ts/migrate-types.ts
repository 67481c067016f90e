/** Options of Store.migrateTo. */
export interface MigrateOptions {
  /**
   * Called after each session is moved. Reports are coalesced when the JS thread is busy;
   * every one is delivered before the move's promise settles. An error it throws rejects
   * the move once it has finished.
   */
  onProgress?: (progress: MigrateProgress) => void;
}

/** How far a move has come. */
export interface MigrateProgress {
  /** The id of the session just moved. */
  sessionId: string;
  sessionsDone: number;
  sessionsTotal: number;
  /** Records copied so far. */
  records: number;
  /** Records the target already held so far (a move run again after an interruption). */
  existing: number;
}

/** A session left out of a move (the source cannot read it: a corrupted one), and why. */
export interface SkippedSession {
  sessionId: string;
  reason: string;
}

export interface MigrateResult {
  /** How many sessions the target now holds from the source. */
  sessionCount: number;
  /** Records copied. */
  records: number;
  /** Records the target already held, matched by uuid and left as they were. */
  existing: number;
  skipped: SkippedSession[];
}
