package sqlite

// A read of a session's records (tail, envelopes, messages), and the load of a session
// that an open does, wait until this process's writes are committed, so that they see
// them. They need not wait for the record of an access (session.AccessSession) nor of a
// close (session.CloseSession): both set only the listing's last access time, whether the
// session is open and its status, which neither a read of records nor a loaded session
// (see session.newSession) uses. Opening a session queues an access and closing it a
// close, so in the speed benchmark's W3 (open, tail, close, a full GC between runs) every
// open waited 0.2 to 0.3 ms for the writer's thread to commit the previous close, against
// 0.35 ms for the tail itself.

// SyncRecords waits until every Op queued so far that a read of records depends on is
// committed: every Op but the records of accesses and closes (see session.RecordSyncer).
func (s *Store) SyncRecords() error { return s.w.q.SyncRecords() }
