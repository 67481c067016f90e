package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// storageError wraps a PostgreSQL or network error in the session sentinel that says what it
// means for the caller; nil stays nil and an error that already says so passes through.
func storageError(what string, err error) error {
	if err == nil {
		return nil
	}
	if isDomainError(err) {
		return err
	}
	return fmt.Errorf("%w: %s: %v", sentinel(err), what, err)
}

// sentinel is the session sentinel for err: ErrStoreUnavailable when the server cannot be
// reached (refused, reset, a timeout, the server shutting down), else by SQLSTATE class.
func sentinel(err error) error {
	if unavailable(err) {
		return session.ErrStoreUnavailable
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return session.ErrStorage
	}
	switch {
	case pe.Code == "40001" || pe.Code == "40P01" || pe.Code == "55P03": // serialization, deadlock, lock not available
		return session.ErrBusy
	case pe.Code == "53100": // disk_full
		return session.ErrDiskFull
	case pe.Code == "25006" || pe.Code == "42501": // read-only transaction, insufficient privilege
		return session.ErrReadOnly
	case pe.Code == "XX001" || pe.Code == "XX002": // data or index corrupted
		return session.ErrCorrupt
	}
	return session.ErrStorage
}

// unavailable reports whether err says the server cannot be reached or went away: a
// network error, a failed connect, a closed connection, or SQLSTATE classes 08
// (connection exception) and 57P (operator intervention: shutdown, crash).
func unavailable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P")
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ne) || errors.As(err, &ce) || errors.Is(err, context.DeadlineExceeded) ||
		pgconn.SafeToRetry(err) || strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "unexpected EOF")
}

// refused reports whether err is PostgreSQL refusing the data of a statement: a constraint
// (SQLSTATE class 23) or a value it cannot store, such as a NUL character in text (class 22).
// Retrying the same statement cannot succeed.
func refused(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "23") || strings.HasPrefix(pe.Code, "22"))
}

// isDomainError reports whether err already says what it means for the caller (or, for
// session.StopScan, is a scan's caller ending it).
func isDomainError(err error) bool {
	for _, s := range []error{
		session.StopScan,
		session.ErrSessionNotFound, session.ErrStoreClosed, session.ErrInvalidArgument, session.ErrSessionCorrupt,
		session.ErrBusy, session.ErrCorrupt, session.ErrDiskFull, session.ErrReadOnly, session.ErrStoreUnavailable, session.ErrStorage,
	} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
