package sqlite

import (
	"github.com/sessionkeep/sessionkeep/persistence/commitqueue"
	"github.com/sessionkeep/sessionkeep/session"
)

// A read of a session's records (tail, envelopes, messages), and the load of a session
// that an open does, wait until this process's writes are committed, so that they see
// them. They need not wait for the record of an access (session.AccessSession) nor of a
// close (session.CloseSession): both set only the listing's last access time, whether the
// session is open and its status, which neither a read of records nor a loaded session
// (see session.newSession) uses. Opening a session queues an access and closing it a
// close, so in the speed benchmark's W3 (open, tail, close, a full GC between runs) every
// open waited 0.2 to 0.3 ms for the writer's thread to commit the previous close, against
// 0.35 ms for the tail itself.

// noteRecords moves queuedRecords to the last of ops, just queued, that a read of records
// depends on. Called with w.mu held.
func (w *writer) noteRecords(ops []session.Op) {
	if through, ok := commitqueue.RecordsThrough(w.queued-uint64(len(ops)), ops); ok {
		w.queuedRecords = through
	}
}

// SyncRecords waits until every Op queued so far that a read of records depends on is
// committed: every Op but the records of accesses and closes (see session.RecordSyncer).
func (s *Store) SyncRecords() error { return s.w.syncRecords() }

// syncRecords is sync up to queuedRecords.
func (w *writer) syncRecords() error {
	return w.syncTo(func() uint64 { return w.queuedRecords })
}

// onlyBookkeeping reports whether every op of ops is the record of an access or a close.
// Queuing only those does not wake the writer at once: wakeForBookkeeping does, after
// commitWindow, and has it commit at once, when a wake-up at the queuing would have had
// it commit them. Woken at once, the writer's thread started on the cores the caller
// needed next: W3's open and tail after a GC took 1.24 ms against 1.09 this way (medians
// of 150, fresh processes, two cores at load 6).
func onlyBookkeeping(ops []session.Op) bool {
	for _, op := range ops {
		if !commitqueue.Bookkeeping(op) {
			return false
		}
	}
	return true
}

// wakeForBookkeeping has the writer commit what is queued, the records of accesses and
// closes that did not wake it, unless a commit since took them.
func (w *writer) wakeForBookkeeping() {
	w.mu.Lock()
	w.wakeArmed = false
	waiting := w.committed < w.queued && !w.closing
	w.mu.Unlock()
	if waiting {
		w.urge()
	}
}
