package commitqueue

import "github.com/sessionkeep/sessionkeep/session"

// Sync waits until every Op queued before the call is committed, or an attempt made after
// the call fails.
func (q *Queue) Sync() error {
	return q.SyncTo(func() uint64 { return q.queued })
}

// SyncRecords waits until every Op queued so far that a read of records depends on is
// committed: every Op but the records of accesses and closes (see session.RecordSyncer).
func (q *Queue) SyncRecords() error {
	return q.SyncTo(func() uint64 { return q.queuedRecords })
}

// SyncTo waits until the Ops up to the count target reads (with the lock held) are
// committed, or an attempt made after the call fails.
func (q *Queue) SyncTo(target func() uint64) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closing {
		return session.ErrStoreClosed
	}
	to, tried := target(), q.attempts
	if q.committed < to {
		q.Urge()
	}
	return q.waitUntil(&q.committed, to, tried)
}

// Flush waits until every Op queued before the call is durable, then returns the conflict
// of the last Op skipped since the last Flush, if one was.
func (q *Queue) Flush() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closing {
		return session.ErrStoreClosed
	}
	target, tried := q.queued, q.attempts
	q.flushTo = max(q.flushTo, target)
	q.Urge()
	if err := q.waitUntil(&q.durable, target, tried); err != nil {
		return err
	}
	dropped := q.dropped
	q.dropped = nil
	return dropped
}

// waitUntil waits, with the lock held, until progress (committed or durable) reaches
// target, an attempt to commit made after tried fails, or the writer stops, and says why it
// stopped short, if it did. A caller waits for a fresh attempt rather than taking the last
// one's error, which space freed or a lock let go may have cured.
func (q *Queue) waitUntil(progress *uint64, target, tried uint64) error {
	for *progress < target && !(q.err != nil && q.attempts > tried) && !q.stopped {
		q.changed.Wait()
	}
	return q.Status(*progress, target)
}

// Status says, with the lock held, why progress stopped short of target, if it did: the
// current failure, or a closed store.
func (q *Queue) Status(progress, target uint64) error {
	switch {
	case progress >= target:
		return nil
	case q.err != nil:
		return q.err
	default:
		return session.ErrStoreClosed
	}
}

// Close commits (and makes durable) what is queued, then stops the writer. It returns the
// failure that kept it from committing, if one did; the Backend is not called after it.
func (q *Queue) Close() error {
	q.mu.Lock()
	q.closing = true
	q.mu.Unlock()
	q.Urge()
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopped {
		q.changed.Wait()
	}
	return q.err
}
