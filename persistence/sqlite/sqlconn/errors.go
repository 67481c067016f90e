package sqlconn

import (
	"errors"
	"fmt"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sessionkeep/sessionkeep/session"
)

// Wrap wraps a SQLite error in the session sentinel that says what it means for
// the caller: ErrBusy, ErrCorrupt, ErrDiskFull, ErrReadOnly, ErrStoreGone or ErrStorage.
func Wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	if IsDomainError(err) {
		return err
	}
	return fmt.Errorf("%w: %s: %v", Sentinel(err), what, err)
}

// Sentinel is the session sentinel for a SQLite error's code; ErrStorage for a code
// with no meaning of its own and for an error that is not SQLite's.
func Sentinel(err error) error {
	var se sqliteCoded
	if !errors.As(err, &se) {
		return session.ErrStorage
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return session.ErrBusy
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return session.ErrCorrupt
	case sqlite3.SQLITE_FULL:
		return session.ErrDiskFull
	case sqlite3.SQLITE_READONLY:
		if se.Code() == readOnlyDBMoved {
			return session.ErrStoreGone
		}
		return session.ErrReadOnly
	}
	return session.ErrStorage
}

// sqliteCoded is a SQLite error with its result code: the driver's (*sqlite.Error) or the
// direct read connections' (*rawdb.Error).
type sqliteCoded interface {
	error
	Code() int
}

// readOnlyDBMoved is SQLITE_READONLY_DBMOVED: SQLite found the database file
// unlinked or renamed under the open connection.
const readOnlyDBMoved = sqlite3.SQLITE_READONLY | 4<<8

// IsConstraint reports whether err is a constraint violation, which retrying cannot fix.
func IsConstraint(err error) bool {
	var se sqliteCoded
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// IsDomainError reports whether err already says what it means for the caller.
func IsDomainError(err error) bool {
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
