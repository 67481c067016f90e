package session

import "time"

// What the packages beside session (branches, snapshots, hosted) use of a Session: its
// store and clock, a way to record, a point where everything recorded can be read, where
// its records sit in its tree, and what a hosted agent has not seen.

// Store returns the store the session records into.
func (s *Session) Store() Store { return s.mgr.store }

// Now returns the time by the session's clock.
func (s *Session) Now() time.Time { return s.mgr.now() }

// Record queues ops for the store, in order, unless the session is closed
// (ErrStoreClosed).
func (s *Session) Record(ops ...Op) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.mgr.store.Apply(ops...)
	return nil
}

// Unseen returns the seq of the first message a hosted agent has not seen (see
// CommitCheckpoint) and how many messages were recorded from it on.
func (s *Session) Unseen() (fromSeq, count int64, err error) {
	if err := s.lock(); err != nil {
		return 0, 0, err
	}
	defer s.mu.Unlock()
	return s.seenSeq, s.chain.nextSeq - s.seenSeq, nil
}

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

// What package catalog uses of a Manager and a Session: the store and clock, a point where
// everything recorded through the Manager is read, and the management ops a live Session
// must follow.

// Manager returns the Manager the session is open in.
func (s *Session) Manager() *Manager { return s.mgr }

// Store returns the store the Manager opens sessions of.
func (m *Manager) Store() Store { return m.store }

// Now returns the time by the Manager's clock.
func (m *Manager) Now() time.Time { return m.now() }

// Sync returns ErrStoreClosed once the Manager is closed, else waits until everything
// recorded through it can be read from its store.
func (m *Manager) Sync() error {
	if err := m.usable(); err != nil {
		return err
	}
	return m.store.Sync()
}

// Manage applies op under the Manager's lock, so that a live Session of the session it
// names follows: a renamed one no longer titles itself after its first prompt, and a
// deleted one is closed first (its objects then fail with ErrStoreClosed) and the delete
// is waited for.
func (m *Manager) Manage(op ManagementOp) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch op := op.(type) {
	case RenameSession:
		if s, ok := m.live[op.SessionID]; ok {
			s.mu.Lock()
			s.titled = true
			s.mu.Unlock()
		}
	case DeleteSession:
		if s, ok := m.live[op.SessionID]; ok {
			s.shutdown(false)
			delete(m.live, op.SessionID)
		}
		m.store.Apply(op)
		return m.store.Sync()
	}
	m.store.Apply(op)
	return nil
}

// Adopt records ops, which create the session state describes (package branches' Fork),
// and opens it as a live Session of m; ErrStoreClosed once m is closed.
func (m *Manager) Adopt(state SessionState, ops ...Op) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrStoreClosed
	}
	m.store.Apply(ops...)
	s := newSession(m, state)
	m.live[state.Info.ID] = s
	return s, nil
}
