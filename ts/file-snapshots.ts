/**
 * File-history snapshots (seed 002): the state of the files an agent works on, at a message,
 * so that they can be put back as they were.
 */

/** One tracked file of a snapshot. */
export interface TrackedFile {
  /** Relative to the folder the files were read from, `/`-separated. */
  path: string;
  /** `deleted`: the file did not exist at the message. */
  state: 'present' | 'deleted';
  /** SHA-256 of the content, in hex (an imported snapshot may carry its source's own hash, or none). */
  hash?: string;
  size?: number;
  /** Permission bits, e.g. 0o644; absent when unknown. */
  mode?: number;
  /** The content is stored, so restoreFiles() can write the file. */
  backedUp: boolean;
  /** An imported entry's own fields, verbatim (Claude Code: backupFileName, version, backupTime). */
  source?: Record<string, unknown>;
}

/** The state of files at one message. */
export interface FileSnapshot {
  id: string;
  messageUuid: string;
  timestamp: string;
  /** The folder the files were read from. */
  root?: string;
  /** Adds files to an earlier snapshot of the same message (Claude Code's isSnapshotUpdate). */
  isUpdate?: boolean;
  /** In path order. */
  files: TrackedFile[];
  /** An imported snapshot record's other fields, verbatim. */
  source?: Record<string, unknown>;
}

export interface SnapshotFilesOptions {
  /** The message the snapshot is of; the head when the call is made, by default. */
  messageUuid?: string;
  /** The folder relative paths are read from, and every path must be inside; the session's projectPath by default. */
  root?: string;
}

export interface RestoreFilesOptions {
  /** The folder to write into, created when missing. Nothing is ever written outside it. */
  into: string;
  /** Remove the files that did not exist at the message (files and links only, never folders). Default false. */
  removeDeleted?: boolean;
}

/** What restoreFiles() did; each list in path order. */
export interface RestoreFilesResult {
  messageUuid: string;
  /** Written with their content at the message. */
  written: string[];
  /** Did not exist at the message; removed from `into` (removeDeleted). */
  removed: string[];
  /** Did not exist at the message, but are in `into` and were left there (no removeDeleted). */
  leftInPlace: string[];
}
