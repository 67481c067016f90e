package session

import "errors"

// Errors of opening and finding things. Each is wrapped with details by the code that
// returns it; match with errors.Is.
var (
	// ErrSessionNotFound: no session has the given id.
	ErrSessionNotFound = errors.New("session not found")
	// ErrStoreClosed: the store or session was closed before the call.
	ErrStoreClosed = errors.New("store or session is closed")
	// ErrInvalidArgument: an option or argument has the right type but a wrong value.
	ErrInvalidArgument = errors.New("invalid argument")
)

// Errors of ingesting stream chunks. None of them changes what is already recorded.
var (
	// ErrInvalidChunk: a chunk of an unknown type, or missing a required field, or one that
	// cannot follow what came before (a tool_use_delta with no tool_use_start).
	ErrInvalidChunk = errors.New("invalid chunk")
	// ErrUnknownToolUse: a tool_result whose tool_use_id matches no tool_use in the session.
	ErrUnknownToolUse = errors.New("unknown tool_use id")
)

// Errors of restoring structured messages into a session.
var (
	// ErrSessionNotEmpty: restoreMessages on a session that already has messages.
	ErrSessionNotEmpty = errors.New("session is not empty")
	// ErrInvalidMessage: a message or block that is not well formed.
	ErrInvalidMessage = errors.New("invalid message")
)

// Errors of the storage underneath.
var (
	// ErrBusy: the database stayed locked by another connection past the busy timeout.
	ErrBusy = errors.New("database is busy")
	// ErrCorrupt: the database file is damaged or is not a sessionkeep database.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrDiskFull: the disk holding the database is full. Queued writes stay in memory and
	// are committed once there is space again; nothing committed is lost.
	ErrDiskFull = errors.New("disk full")
	// ErrReadOnly: the database cannot be written: its file, folder or file system is
	// read-only for this process. Queued writes stay in memory and are retried.
	ErrReadOnly = errors.New("store is read-only")
	// ErrStoreGone: the database file was deleted or moved while the store was open. What
	// was queued after that cannot be committed to it; open the store again.
	ErrStoreGone = errors.New("store file is gone")
	// ErrStoreUnavailable: a store on a server (PostgreSQL) cannot be reached: the network
	// or the server is down. Queued writes stay in memory and are retried.
	ErrStoreUnavailable = errors.New("store unavailable")
	// ErrSessionConflict: another process wrote the same session at the same time (it took
	// the place in the message order that this writer's records needed, or deleted the
	// session). This writer's conflicting records were skipped and the other's kept.
	ErrSessionConflict = errors.New("session written by another process at the same time")
	// ErrStorage: any other failure to read or write the database.
	ErrStorage = errors.New("storage failure")
)

// Errors of building contexts and compacting.
var (
	// ErrBudgetTooSmall: the context window leaves no room for a message once the system
	// prompt, the tool definitions and the response reserve are taken out.
	ErrBudgetTooSmall = errors.New("context budget too small")
	// ErrInvalidContext: a context does not pass the provider's validity rules. The builder
	// returns one only when it has a bug; it is here for checking contexts of one's own.
	ErrInvalidContext = errors.New("invalid context")
)

// Errors of importing and exporting transcripts.
var (
	// ErrFileAccess: a file or folder could not be read or written: one to import from or
	// export to, or the files of a snapshot (permissions, a directory where a file must go,
	// a full disk).
	ErrFileAccess = errors.New("file access failed")
)

// Errors of finding and addressing sessions.
var (
	// ErrAmbiguousID: an id prefix that matches more than one session.
	ErrAmbiguousID = errors.New("ambiguous session id")
)

// Errors of hosted agents' sessions.
var (
	// ErrWorkspaceRequired: a session key without a workspace, on a store not opened for one.
	ErrWorkspaceRequired = errors.New("session key has no workspace")
)

// Errors of damaged data.
var (
	// ErrSessionCorrupt: rows of one session cannot be read (a column of the wrong type, a
	// block that is not JSON, a missing blob). The session is marked corrupted; every other
	// session is unaffected.
	ErrSessionCorrupt = errors.New("session is corrupted")
)

// Errors of branches and file-history snapshots.
var (
	// ErrMessageNotFound: no record of the session has the given uuid.
	ErrMessageNotFound = errors.New("message not found")
	// ErrPathEscape: a file path that leads out of the folder it must stay in: absolute, with
	// "..", or through a symbolic link that points out. Nothing was read or written.
	ErrPathEscape = errors.New("path escapes its folder")
	// ErrSnapshotNotFound: restoring files at a message with no file snapshot at it or
	// before it on its branch, or reading a file of a snapshot the session does not hold.
	ErrSnapshotNotFound = errors.New("no file snapshot")
	// ErrBackupMissing: restoring or reading a file the snapshot says was present but holds
	// no content of (a snapshot imported without its backups). Nothing was written.
	ErrBackupMissing = errors.New("file backup missing")
	// ErrFileNotInSnapshot: reading a file of a snapshot that does not track that path.
	ErrFileNotInSnapshot = errors.New("file not in snapshot")
	// ErrUnsupported: the store's backend does not offer the feature (session.watch() on a
	// SQLite store).
	ErrUnsupported = errors.New("not supported by this store")
)
