package session

// Export gives fn the session's state (its listing and token tracker) and a scan of its
// records, in order, as they are now: a block still streaming is included as far as it
// has come.
func (m *Manager) Export(id string, fn func(st SessionState, scan Scan) error) error {
	s, err := m.acquire(id)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.readable(); err != nil {
		return err
	}
	st, err := m.store.LoadSession(id)
	if err != nil {
		return err
	}
	return fn(st, func(each func(*StoredMessage) error) error { return m.store.ScanMessages(id, each) })
}

// Scan calls fn with each stored record of a session, in order; the record and its slices
// are valid only during the call.
type Scan func(fn func(*StoredMessage) error) error
