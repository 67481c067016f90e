package sqlite

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// storageError wraps a SQLite error in the session sentinel that says what it means for
// the caller: ErrBusy, ErrCorrupt, ErrDiskFull, ErrReadOnly, ErrStoreGone or ErrStorage.
func storageError(what string, err error) error {
	if err == nil {
		return nil
	}
	if isDomainError(err) {
		return err
	}
	sentinel := session.ErrStorage
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			sentinel = session.ErrBusy
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			sentinel = session.ErrCorrupt
		case sqlite3.SQLITE_FULL:
			sentinel = session.ErrDiskFull
		case sqlite3.SQLITE_READONLY:
			sentinel = session.ErrReadOnly
			if se.Code() == sqliteReadOnlyDBMoved {
				sentinel = session.ErrStoreGone
			}
		}
	}
	return fmt.Errorf("%w: %s: %v", sentinel, what, err)
}

// sqliteReadOnlyDBMoved is SQLITE_READONLY_DBMOVED: SQLite found the database file
// unlinked or renamed under the open connection.
const sqliteReadOnlyDBMoved = sqlite3.SQLITE_READONLY | 4<<8

// isConstraint reports whether err is a constraint violation, which retrying cannot fix.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// isDomainError reports whether err already says what it means for the caller.
func isDomainError(err error) bool {
	for _, sentinel := range []error{
		session.ErrSessionNotFound, session.ErrStoreClosed, session.ErrInvalidArgument, session.ErrSessionCorrupt,
		session.ErrBusy, session.ErrCorrupt, session.ErrDiskFull, session.ErrReadOnly, session.ErrStoreGone, session.ErrStorage,
	} {
		if errors.Is(err, sentinel) {
			return true
		}
	}
	return false
}
