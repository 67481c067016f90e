package sqlite

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// busyBound is how long, in all, sessionkeep waits out another connection's lock on one
// operation (opening, migrating, a commit, closing) before it reports ErrBusy. Other
// processes commit in milliseconds, so a lock held this long is a process stuck inside a
// transaction, not contention. A variable so that tests can shorten it.
var busyBound = 30 * time.Second

// Backoff between attempts: SQLite's own busy handler has waited already when it was
// called at all, and some locks (a snapshot gone stale, WAL recovery) return at once, so
// the retries start short, double, and are jittered so that processes do not wake
// together.
const (
	busyFirstDelay = 2 * time.Millisecond
	busyMaxDelay   = 200 * time.Millisecond
)

// isBusy reports whether err is a lock held by another connection: raw from SQLite or
// already wrapped as ErrBusy.
func isBusy(err error) bool {
	return err != nil && (errors.Is(err, session.ErrBusy) || sqlconn.Sentinel(err) == session.ErrBusy)
}

// backoff is the retry schedule of one busy operation.
type backoff struct {
	start time.Time
	delay time.Duration
}

// newBackoff starts the schedule of an operation that has just met a lock.
func newBackoff() backoff { return backoff{start: time.Now(), delay: busyFirstDelay} }

// expired reports whether the operation has waited busyBound in all.
func (b *backoff) expired() bool { return time.Since(b.start) >= busyBound }

// track notes a lock that kept operation what waiting, starting the schedule at the first,
// and returns the ErrBusy to give up with once the operation has waited busyBound in all;
// nil while it is still to wait.
func (b *backoff) track(what string, err error) error {
	if b.start.IsZero() {
		*b = newBackoff()
	}
	if b.expired() {
		return busyError(what, b.start, err)
	}
	return nil
}

// next returns the wait before the next attempt and lengthens the one after it.
func (b *backoff) next() time.Duration {
	d := b.delay/2 + rand.N(b.delay)
	b.delay = min(b.delay*2, busyMaxDelay)
	return d
}

// retryBusy runs op until it succeeds, fails for a reason other than a lock, or has been
// kept waiting by locks for busyBound; then the error says which operation waited how long.
func retryBusy(what string, op func() error) error {
	b := newBackoff()
	for {
		err := op()
		if err == nil || !isBusy(err) {
			return err
		}
		if b.expired() {
			return busyError(what, b.start, err)
		}
		time.Sleep(b.next())
	}
}

// busyError is ErrBusy for an operation that waited since start.
func busyError(what string, start time.Time, err error) error {
	return fmt.Errorf("%w: %s waited %.0f s for the store's lock, held all that time by another connection "+
		"(another process inside a long transaction, or one stopped while it held the lock): %v",
		session.ErrBusy, what, time.Since(start).Seconds(), err)
}
