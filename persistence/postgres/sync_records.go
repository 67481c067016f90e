package postgres

// A read of a session's records (tail, envelopes, messages) and the load of a session that an
// open does wait for this process's writes, but not for the records of accesses and closes
// (see session.RecordSyncer): opening a session queues an access and closing it a close, so
// each open, and the read after it, waited for a commit (a transaction on the server) that
// nothing it reads depends on.

// SyncRecords waits until every Op queued so far that a read of records depends on is
// committed: every Op but the records of accesses and closes.
func (s *Store) SyncRecords() error { return s.w.q.SyncRecords() }
