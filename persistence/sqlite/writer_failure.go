package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/procowner"
	"github.com/sessionkeep/sessionkeep/session"
)

// retryDelay is how long the writer waits before retrying a batch that failed for a reason
// other than a lock (a full disk, a read-only file). The batch stays queued in memory
// meanwhile; nothing is dropped.
const retryDelay = 100 * time.Millisecond

// Failed returns what callers are told of the run-th failed commit in a row, and how long
// to wait before the next attempt: a lock is waited out in silence until busyBound, since
// other processes commit in milliseconds; any other failure is told at once (with the
// processes that may hold the lock, for an ErrBusy) and retried after retryDelay.
func (w *writer) Failed(err error, run int) (report error, wait time.Duration) {
	if run == 1 || !isBusy(err) {
		w.busy = backoff{}
	}
	if !isBusy(err) {
		return w.withSuspects(err), retryDelay
	}
	report = w.withSuspects(w.busy.track("committing", err))
	return report, w.busy.next()
}

// withSuspects adds to an ErrBusy the processes that have sessions of the store open, one
// of which most likely holds the lock; other errors, and nil, pass through. The query
// reads, which the lock does not stop in WAL mode.
func (w *writer) withSuspects(err error) error {
	if err == nil || !errors.Is(err, session.ErrBusy) {
		return err
	}
	var suspects []string
	w.c.Query(`SELECT DISTINCT owner FROM sessions WHERE is_open = 1 AND owner != ? LIMIT 5`, []any{w.owner},
		func(row []driver.Value) error {
			if owner, ok := row[0].(string); ok {
				suspects = append(suspects, procowner.Describe(owner))
			}
			return nil
		})
	if len(suspects) == 0 {
		return fmt.Errorf("%w; no other process has a session of the store open", err)
	}
	return fmt.Errorf("%w; processes with sessions of the store open: %s", err, strings.Join(suspects, ", "))
}

// syncFile makes the file at path durable (fsync). A WAL that is not there holds nothing
// to sync, as long as the database beside it is there. The file is opened for writing:
// Windows flushes (FlushFileBuffers) only through a handle with write access, and answers
// "Access denied" for a read-only one (seen under Wine when another process's reader kept
// the checkpoint from copying the WAL, so the WAL itself was synced).
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return storeThere(strings.TrimSuffix(path, "-wal"))
	}
	if err != nil {
		return fmt.Errorf("%w: opening %s to sync it: %v", session.ErrStorage, path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		sentinel := session.ErrStorage
		if errors.Is(err, syscall.ENOSPC) {
			sentinel = session.ErrDiskFull
		}
		return fmt.Errorf("%w: syncing %s: %v", sentinel, path, err)
	}
	return nil
}

// stillThere checks that the database file the writer opened is still at its path, and
// not replaced by another file.
func (w *writer) stillThere() error {
	now, err := os.Stat(w.path)
	switch {
	case err == nil && os.SameFile(now, w.file):
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil // a folder that cannot be searched any more: the open file still takes writes
	}
	return storeGone(w.path)
}

// storeThere checks that the database file db still exists.
func storeThere(db string) error {
	if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
		return storeGone(db)
	}
	return nil
}

// storeGone is ErrStoreGone for the database file db.
func storeGone(db string) error {
	return fmt.Errorf("%w: %s was deleted or moved while the store was open", session.ErrStoreGone, db)
}

// errIndexLater says indexing met a lock and is to be tried again after a wait.
var errIndexLater = errors.New("index later")

// indexLockWait waits out a lock that kept a slice from being indexed, as commits do:
// errIndexLater until busyBound, then the ErrBusy that searches waiting are given. Any other
// error, or none, passes through and ends the wait.
func (w *writer) indexLockWait(err error) error {
	if !isBusy(err) {
		w.indexBusy = backoff{}
		return err
	}
	if err := w.indexBusy.track("indexing for search", err); err != nil {
		w.indexBusy = backoff{}
		return err
	}
	time.Sleep(w.indexBusy.next())
	return errIndexLater
}
