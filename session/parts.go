package session

// What the packages beside session (branches, snapshots, hosted) use of a Session: its
// store, a point where everything recorded can be read, and where its records sit in its
// tree.

// Store returns the store the session records into.
func (s *Session) Store() Store { return s.mgr.store }

// Sync checkpoints the block streaming, if any, and waits until everything recorded so
// far can be read from the store.
func (s *Session) Sync() error { return s.readable() }

// Lineage returns the uuids of the records from the root of the session's tree to the
// record uuid, root first; nil when the session has no such record. It reads what the
// store holds: Sync first to see what was just recorded.
func (s *Session) Lineage(uuid string) ([]string, error) {
	t, err := s.loadTree()
	if err != nil {
		return nil, err
	}
	at := t.find(uuid)
	if at < 0 {
		return nil, nil
	}
	var line []string
	for _, i := range t.lineage(at) {
		line = append(line, t.links[i].UUID)
	}
	return line, nil
}
