package session

// LastEnvelope returns the last record of the branch that ends at the head, with its
// envelope, as JSON, or null when the session has no record yet: after a rewind, the
// record the rewind went back to (or the last one hanging off the branch), not the last
// one written. It reads from that record on through the index, so it costs the same at any
// length, but for the headers of a branched session once per write, and the records a
// rewind left after the branch's last until the next message; a block still streaming is
// included as far as it has come.
func (s *Session) LastEnvelope() ([]byte, error) {
	if err := s.readable(); err != nil {
		return nil, err
	}
	last, err := s.lastOnBranch()
	if err != nil || last < 0 {
		return []byte("null"), err
	}
	var buf []byte
	err = s.mgr.store.ScanMessagesFrom(s.id, last, func(m *StoredMessage) error {
		if m.Seq == last {
			buf = AppendEnvelope(buf[:0], m)
		}
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

// lastOnBranch returns the seq of the last record on the branch that ends at the head, or
// -1 when there is none.
func (s *Session) lastOnBranch() (int64, error) {
	t, on, err := s.currentBranch()
	if err != nil {
		return -1, err
	}
	if t == nil { // never branched: every record is on the branch
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.chain.nextSeq - 1, nil
	}
	last := int64(-1)
	for i, l := range t.links { // in seq order
		if on[i] {
			last = l.Seq
		}
	}
	return last, nil
}
