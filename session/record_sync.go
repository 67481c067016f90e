package session

// RecordSyncer is a Store that can wait for the writes a read of records depends on alone:
// every write queued so far but the records of accesses (AccessSession) and closes
// (CloseSession), which set only the listing's last access time, whether the session is
// open and its status. A store that is not one is waited on with Sync.
type RecordSyncer interface {
	SyncRecords() error
}

// recordsReadable is readable for a read of the session's records (EncodeParts): it does not
// wait for the access that opening the session recorded, so the first read after an open
// does not wait for the writer to commit it.
func (s *Session) recordsReadable() error {
	rs, ok := s.mgr.store.(RecordSyncer)
	if !ok {
		return s.readable()
	}
	if err := s.checkpointNow(); err != nil {
		return err
	}
	return rs.SyncRecords()
}

// syncForLoad waits until the store holds what loading a session reads: its messages, head
// and hosted state, not the access and close records (which newSession does not read), so
// that opening a session just closed does not wait for the writer to commit the close.
func (m *Manager) syncForLoad() error {
	if rs, ok := m.store.(RecordSyncer); ok {
		return rs.SyncRecords()
	}
	return m.store.Sync()
}
