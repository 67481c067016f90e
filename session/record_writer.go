package session

import "errors"

// What package importing uses of a Manager and a Session: a session opened for an import
// (created when the store does not have it), and whole records written at its end under
// its lock, numbered and redacted as live messages are.

// OpenOrCreate returns the live Session of info.ID, loading it, or creating it with info
// when the store does not have it; created says which. Neither counts as an access (an
// import is not someone opening the session).
func (m *Manager) OpenOrCreate(info SessionInfo) (s *Session, created bool, err error) {
	s, err = m.acquire(info.ID)
	if err == nil || !errors.Is(err, ErrSessionNotFound) {
		return s, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, false, ErrStoreClosed
	}
	if s, ok := m.live[info.ID]; ok { // created meanwhile by another import
		s.mu.Lock()
		s.refs++
		s.mu.Unlock()
		return s, false, nil
	}
	if info.Status == "" {
		info.Status = StatusActive
	}
	m.store.Apply(CreateSession{Info: info})
	s = newSession(m, SessionState{Info: info})
	m.live[info.ID] = s
	return s, true, nil
}

// RecordBlock is a block of a record written whole (RecordWriter.Append), checked with
// blocks.CheckBlock.
type RecordBlock struct {
	JSON      []byte
	ToolUseID string // the id of a tool_use block, "" for any other
}

// RecordWriter appends whole records to a Session whose lock it holds: see WriteRecords.
type RecordWriter struct {
	s       *Session
	counted bool // a record's usage was added to the token tracker
}

// WriteRecords runs fn with the session locked, so that nothing else writes it meanwhile
// (two imports of one session never both add a record), after ending a message still open
// (a reply as interrupted). When fn succeeds, the token tracker is recorded once with the
// usage of every record it appended.
func (s *Session) WriteRecords(fn func(w *RecordWriter) error) error {
	if err := s.lock(); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.asm.endOpen(true)
	w := &RecordWriter{s: s}
	if err := fn(w); err != nil {
		return err
	}
	if w.counted {
		s.mgr.store.Apply(SetTracker{SessionID: s.id, Tracker: s.tracker})
	}
	return nil
}

// LastTurn returns the turn of the session's head.
func (w *RecordWriter) LastTurn() int64 { return w.s.chain.lastTurn }

// Append queues a whole record as the session's next message: hdr as given but for its
// Seq and Turn, which the session's chain gives it (chain.appendWhole). Its blocks and hdr.Extra
// are redacted as a live message's; it ends with status (MessageComplete when empty) and
// usage, which the token tracker counts. Append returns the record's turn.
func (w *RecordWriter) Append(hdr MessageHeader, blocks []RecordBlock, status string, usage *Usage) int64 {
	s := w.s
	defer s.gather()() // the record, and the count of what redacting it replaced, in one Apply
	s.chain.appendWhole(&hdr)
	if status == "" {
		status = MessageComplete
	}
	if len(hdr.Extra) > 0 {
		hdr.Extra = s.redactJSON(hdr.Extra) // execution records and the source's own fields
	}
	s.record(BeginMessage{SessionID: s.id, Header: hdr})
	for i, b := range blocks {
		s.record(PutBlock{SessionID: s.id, Seq: hdr.Seq, Index: i, JSON: s.redactBlock(b.JSON), ToolUseID: b.ToolUseID})
	}
	var used Usage
	if usage != nil {
		used = *usage
		s.tracker.Add(used)
		w.counted = true
	}
	s.record(EndMessage{SessionID: s.id, Seq: hdr.Seq, Status: status, Meta: hdr.Meta, Extra: hdr.Extra, Usage: used, Imported: true})
	return hdr.Turn
}
