package sqlite

import "github.com/sessionkeep/sessionkeep/session"

// A read of a session's records (tail, envelopes, messages) waits until this process's
// writes are committed, so that it sees them. It need not wait for the record of an access
// (session.AccessSession), which only sets the listing's last access time; opening a
// session queues one, so the first read after an open waited for its commit: in the speed
// benchmark's W3 (open, tail, close, a full GC between runs) that wait was 0.2 to 1.2 ms,
// the writer's thread being woken to commit it, against 0.7 ms for the tail itself.

// noteRecords moves queuedRecords to the last of ops, just queued, that a read of records
// depends on. Called with w.mu held.
func (w *writer) noteRecords(ops []session.Op) {
	for i := len(ops) - 1; i >= 0; i-- {
		if _, access := ops[i].(session.AccessSession); !access {
			w.queuedRecords = w.queued - uint64(len(ops)-1-i)
			return
		}
	}
}

// closesSession reports whether ops close a session. Nothing more of that session comes to
// be gathered with the close, and the next open of the session waits for it to be
// committed (it loads the session's state), so the writer commits it without waiting out
// its window: in W3 (open, tail, close, a full GC between runs) the next open otherwise
// waited up to a millisecond for the writer's thread to be woken.
func closesSession(ops []session.Op) bool {
	for _, op := range ops {
		if _, ok := op.(session.CloseSession); ok {
			return true
		}
	}
	return false
}

// SyncRecords waits until every Op queued so far that a read of records depends on is
// committed: every Op but the records of accesses (see session.RecordSyncer).
func (s *Store) SyncRecords() error { return s.w.syncRecords() }

// syncRecords is sync up to queuedRecords.
func (w *writer) syncRecords() error {
	return w.syncTo(func() uint64 { return w.queuedRecords })
}
