/** The formats store.import() reads. */
export type ImportFormat = 'claude-code' | 'codex' | 'gemini' | 'opencode' | 'aider' | 'jsonl' | 'json';

/** The formats store.export() writes. */
export type ExportFormat = 'claude-code' | 'jsonl' | 'json' | 'markdown';

export interface ImportOptions {
  /** The format of the files; without it, each file's format is told from its first record. */
  format?: ImportFormat;
  /**
   * Where Claude Code keeps file backups (`~/.claude/file-history`, a folder per session).
   * Claude Code's file-history snapshots become file snapshots (`session.fileSnapshots()`);
   * their backups are read from here, or else from beside the transcript's Claude Code home
   * (`<home>/file-history` for a transcript in `<home>/projects/<project>/`). A backup found
   * in neither is listed with `backedUp: false` and cannot be restored.
   */
  fileHistoryDir?: string;
  /**
   * Called as the import goes: at most every 50 ms while a file is read, and after each file.
   * Reports are coalesced when the JS thread is busy; every one is delivered before the
   * import's promise settles. An error it throws rejects the import once it has finished.
   */
  onProgress?: (progress: ImportProgress) => void;
}

/** How far an import has come: what a progress bar needs. */
export interface ImportProgress {
  /** The file being read. */
  file: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Records added so far. */
  records: number;
  /** Records found already stored so far (an import run again). */
  existing: number;
  /** Lines (or whole files) left out so far. */
  skipped: number;
}

/** A line left out of an import, or with `line` 0 a whole file, and why. */
export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface ImportResult {
  /** The ids of the sessions the files hold, whether the import created them or not. */
  sessions: string[];
  /** Records added. */
  records: number;
  /** Records the store already held, matched by uuid and left as they were. */
  existing: number;
  skipped: SkippedLine[];
}

export interface ExportOptions {
  format: ExportFormat;
  /** Write the export to this file (created or replaced whole, mode 0600) instead of returning it. */
  path?: string;
}
