package bridge

import (
	"errors"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// errorCodes maps each sentinel error to the stable code JavaScript sees and a hint on
// what to do. This is the one place Go errors become JavaScript errors; the first match
// wins, so the more specific sentinels come first.
var errorCodes = []struct {
	err  error
	code string
	hint string
}{
	{session.ErrSessionNotFound, "SESSION_NOT_FOUND", "Check the id, or find it with store.listSessions()."},
	{session.ErrAmbiguousID, "AMBIGUOUS_ID", "Give more characters of the id, or pick one with store.listSessions()."},
	{session.ErrWorkspaceRequired, "WORKSPACE_REQUIRED", "Session features of hosted agents need a workspace."},
	{session.ErrSessionNotEmpty, "SESSION_NOT_EMPTY", "Restore into a new session from store.createSession()."},
	{session.ErrStoreClosed, "STORE_CLOSED", "Open the store or the session again."},
	{session.ErrInvalidChunk, "INVALID_CHUNK", "Nothing was recorded from this chunk; the session is unchanged."},
	{session.ErrUnknownToolUse, "UNKNOWN_TOOL_USE", "Ingest the tool_use before its tool_result; the session is unchanged."},
	{session.ErrInvalidMessage, "INVALID_MESSAGE", "Nothing was recorded; fix the message and try again."},
	{session.ErrBudgetTooSmall, "CONTEXT_BUDGET_TOO_SMALL", "Nothing fits; the session is unchanged."},
	{session.ErrInvalidContext, "INVALID_CONTEXT", "This is a bug in sessionkeep; please report it with s.debugContext()."},
	{session.ErrMessageNotFound, "MESSAGE_NOT_FOUND", "Check the uuid, or find it with session.tree()."},
	{session.ErrPathEscape, "PATH_ESCAPE", "Nothing was read or written."},
	{session.ErrSnapshotNotFound, "SNAPSHOT_NOT_FOUND", "Take one with session.snapshotFiles(); list them with session.fileSnapshots()."},
	{session.ErrBackupMissing, "BACKUP_MISSING", ""},
	{session.ErrFileNotInSnapshot, "FILE_NOT_FOUND", "List each snapshot's files with session.fileSnapshots()."},
	{session.ErrUnsupported, "UNSUPPORTED", "The store does not keep what was asked for; the SQLite and PostgreSQL stores keep it all."},
	{session.ErrInvalidArgument, "INVALID_ARGUMENT", ""},
	{session.ErrFileAccess, "FILE_ERROR", "Check the path and its permissions."},
	{session.ErrSessionCorrupt, "SESSION_CORRUPT", "The session is marked corrupted; every other session is unaffected."},
	{session.ErrBusy, "SQLITE_BUSY", "Another process held the database lock past the bound sessionkeep waits; queued writes are kept and retried."},
	{session.ErrCorrupt, "STORE_CORRUPT", "The file is damaged or is not a sessionkeep database."},
	{session.ErrDiskFull, "DISK_FULL", "Free space on the disk: queued writes are kept in memory and committed once there is room."},
	{session.ErrReadOnly, "READ_ONLY", "Make the store's file and folder writable: queued writes are kept in memory and retried."},
	{session.ErrStoreGone, "STORE_GONE", "The database file was deleted or moved while open; open the store again."},
	{session.ErrStoreUnavailable, "STORE_UNAVAILABLE", "The database server cannot be reached: queued writes are kept in memory and retried."},
	{session.ErrSessionConflict, "SESSION_CONFLICT", "Another process appended to this session at the same time: its records were kept and this writer's conflicting ones skipped. Route a session's turns to one writer."},
	{session.ErrStorage, "STORAGE_ERROR", "Queued writes are kept in memory and retried."},
	{native.ErrInternal, "INTERNAL", "This is a bug in sessionkeep; please report it."},
}

// jsError turns a Go error into the code and message of the JavaScript error for it.
func jsError(err error) native.JSError {
	for _, e := range errorCodes {
		if errors.Is(err, e.err) {
			msg := err.Error()
			if e.hint != "" {
				msg += ". " + e.hint
			}
			return native.JSError{Code: e.code, Message: msg}
		}
	}
	return native.JSError{Code: "INTERNAL", Message: err.Error()}
}

func init() {
	native.SetErrorMapper(jsError)
	native.Register("setErrorClass", func(c *native.Call) (native.Value, error) {
		return c.Undefined(), c.SetErrorClass(0)
	})
}
