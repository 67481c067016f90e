package session

// LastEnvelope returns the session's last message with its envelope, as JSON, or null
// when the session has no message yet. It reads that one message through the index, so
// it costs the same on a session of any length; a block still streaming is included as
// far as it has come.
func (s *Session) LastEnvelope() ([]byte, error) {
	if err := s.readable(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	last := s.nextSeq - 1
	s.mu.Unlock()
	if last < 0 {
		return []byte("null"), nil
	}
	var buf []byte
	err := s.mgr.store.ScanMessagesFrom(s.id, last, func(m *StoredMessage) error {
		buf = AppendEnvelope(buf[:0], m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if buf == nil {
		return []byte("null"), nil
	}
	return buf, nil
}
