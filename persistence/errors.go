package persistence

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// storageError wraps a SQLite error in the session sentinel that says what it means for
// the caller: ErrBusy, ErrCorrupt or ErrStorage.
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
		}
	}
	return fmt.Errorf("%w: %s: %v", sentinel, what, err)
}

// isConstraint reports whether err is a constraint violation, which retrying cannot fix.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// isDomainError reports whether err already says what it means for the caller.
func isDomainError(err error) bool {
	for _, sentinel := range []error{
		session.ErrSessionNotFound, session.ErrStoreClosed, session.ErrInvalidArgument, session.ErrSessionCorrupt,
		session.ErrBusy, session.ErrCorrupt, session.ErrStorage,
	} {
		if errors.Is(err, sentinel) {
			return true
		}
	}
	return false
}
