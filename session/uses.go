package session

// What context building and token counting use of a Session beyond its messages and what
// parts.go gives every package beside session: a point where everything recorded is read
// and counted, the branch its head is on, and a place for the report of its last build.

// Provider returns the session's provider, the default of each message's.
func (s *Session) Provider() string { return s.asm.provider }

// Settle makes everything the session recorded so far readable as a whole: a message of
// tool results still open ends (a context built for the next model call holds them), the
// block streaming is checkpointed, and every ended message is counted and stored.
func (s *Session) Settle() error {
	if err := s.endToolResults(); err != nil {
		return err
	}
	if err := s.checkpointNow(); err != nil {
		return err
	}
	if s.mgr.counter != nil { // the counter reads nothing from the store: one Sync below covers all
		s.mgr.counter.Wait(s.id)
	}
	return s.mgr.store.Sync()
}

// CurrentBranch returns, when the session may hold records off the branch its head is on,
// the links of its records and which of them are on that branch; branched is false for a
// session that never branched, which is one line of records.
func (s *Session) CurrentBranch() (links []Link, on []bool, branched bool, err error) {
	t, on, err := s.currentBranch()
	if err != nil || t == nil {
		return nil, nil, false, err
	}
	return t.links, on, true, nil
}

// KeepReport keeps r, the report of the last context built for the session (package
// contextbuild's), for KeptReport; session does not look inside it.
func (s *Session) KeepReport(r any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastReport = r
}

// KeptReport returns what KeepReport kept in this process, nil before anything.
func (s *Session) KeptReport() (any, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	return s.lastReport, nil
}
