package session

import (
	"errors"
	"fmt"
	"time"
)

// Record is one record of a transcript being imported, with the envelope its source gave
// it: a message, or a record that is not one (a summary, a system notice, a progress
// report), which has no Role and no Blocks and is kept for its envelope.
type Record struct {
	UUID       string // the source's own, kept; the session's records are matched by it
	ParentUUID string
	Type       string // user, assistant, tool_result, or the source's type of a record that is not a message
	Role       string // user or assistant; "" for a record that is not a message
	CreatedAt  time.Time
	Provider   string
	RequestID  string
	Status     string // MessageComplete when empty
	// IsSidechain and Continues are as in MessageHeader. ParentToolUseID, for a sidechain
	// record, names the tool call that started it: the record takes that call's turn.
	IsSidechain     bool
	Continues       bool
	ParentToolUseID string
	Meta            []byte // JSON object: the message fields beside role and content
	Extra           []byte // JSON object: EnvelopeExtra
	Blocks          []RecordBlock
	// Usage is the usage of the request this record reports, counted in the token tracker
	// once: on one record of a message written over several.
	Usage *Usage
	// FileSnapshot, when not nil, is the state of files the record tells (a Claude Code
	// file-history-snapshot record), put with it. Its ID must be the same on every import
	// of the record, so that importing it again does not put it twice; it is put even when
	// the record is already stored, so a session imported before its snapshots were read
	// gets them.
	FileSnapshot *FileSnapshot
}

// RecordBlock is a block of a Record, checked with CheckBlock.
type RecordBlock struct {
	JSON      []byte
	ToolUseID string // the id of a tool_use block, "" for any other
}

// ImportTarget is the session records are imported into: the one with Info.ID, created
// with Info when it does not exist. Tracker, when given, replaces the token tracker of a
// session the import created, once its records are in.
type ImportTarget struct {
	Info    SessionInfo
	Tracker *TokenTracker
}

// ImportCount says what an import did to one session.
type ImportCount struct {
	Created  bool // the import created the session
	Added    int  // records added
	Existing int  // records the session already held, by uuid, and were left as they were
}

// Import adds records to the session target names, creating it when needed. A record whose
// uuid the session already holds is left out, so importing the same records again changes
// nothing. Turns are numbered as for live messages.
func (m *Manager) Import(target ImportTarget, recs []Record) (ImportCount, error) {
	if target.Info.ID == "" {
		return ImportCount{}, fmt.Errorf("%w: an imported session needs an id", ErrInvalidArgument)
	}
	s, created, err := m.openOrCreate(target.Info)
	if err != nil {
		return ImportCount{}, err
	}
	defer s.Close()
	count, before, err := s.importRecords(recs)
	count.Created = created
	if err != nil || count.Added == 0 {
		return count, err
	}
	if created && target.Tracker != nil {
		err = s.RestoreTokenTracker(*target.Tracker)
	}
	// The session was last active when its latest record was written (as its source says),
	// not when it was imported.
	updated := target.Info.UpdatedAt
	if updated.IsZero() {
		updated = recs[len(recs)-1].CreatedAt
	}
	if before.After(updated) {
		updated = before
	}
	m.store.Apply(SetUpdatedAt{SessionID: s.id, Time: updated})
	if created { // last used when its source says, or at its last record
		used := target.Info.LastAccessedAt
		if used.IsZero() {
			used = updated
		}
		m.store.Apply(AccessSession{SessionID: s.id, At: used})
	}
	return count, err
}

// openOrCreate returns the live Session of info.ID, loading it, or creating it with info
// when the store does not have it.
func (m *Manager) openOrCreate(info SessionInfo) (*Session, bool, error) {
	s, err := m.acquire(info.ID)
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

// importRecords appends the records the session does not hold yet, under the session's
// lock, so two imports of one session never both add a record. It returns when the session
// was last active before.
func (s *Session) importRecords(recs []Record) (count ImportCount, before time.Time, err error) {
	if err := s.lock(); err != nil {
		return count, before, err
	}
	defer s.mu.Unlock()
	s.endOpen(true)
	if err := s.mgr.store.Sync(); err != nil {
		return count, before, err
	}
	state, err := s.mgr.store.LoadSession(s.id)
	if err != nil {
		return count, before, err
	}
	known, err := s.mgr.store.MessageUUIDs(s.id)
	if err != nil {
		return count, before, err
	}
	turnOfCall := map[string]int64{}
	snaps := &snapshotImport{s: s}
	var tracked bool
	for i := range recs {
		r := &recs[i]
		if _, ok := known[r.UUID]; ok {
			count.Existing++
			if err := snaps.putMissing(r); err != nil {
				return count, before, err
			}
			continue
		}
		known[r.UUID] = struct{}{}
		turn, err := s.importTurn(r, turnOfCall)
		if err != nil {
			return count, before, err
		}
		s.applyRecord(r, turn)
		if err := snaps.put(r); err != nil {
			return count, before, err
		}
		for _, b := range r.Blocks {
			if b.ToolUseID != "" {
				turnOfCall[b.ToolUseID] = turn
			}
		}
		if r.Usage != nil {
			s.tracker.Add(*r.Usage)
			tracked = true
		}
		count.Added++
	}
	if tracked {
		s.mgr.store.Apply(SetTracker{SessionID: s.id, Tracker: s.tracker})
	}
	if snaps.added && count.Added == 0 { // only snapshots: the session was not active now
		s.mgr.store.Apply(SetUpdatedAt{SessionID: s.id, Time: state.Info.UpdatedAt})
	}
	return count, state.Info.UpdatedAt, nil
}

// importTurn numbers r as a live message would be: a prompt of the main conversation
// starts a turn, a sidechain record is in the turn of the call that started it (recorded
// before, or earlier in this import).
func (s *Session) importTurn(r *Record, turnOfCall map[string]int64) (int64, error) {
	if r.IsSidechain {
		if turn, ok := turnOfCall[r.ParentToolUseID]; ok || r.ParentToolUseID == "" {
			if !ok {
				turn = s.lastTurn
			}
			return turn, nil
		}
		turn, found, err := toolUseTurn(s.mgr.store, s.id, r.ParentToolUseID)
		if !found {
			turn = s.lastTurn
		}
		turnOfCall[r.ParentToolUseID] = turn
		return turn, err
	}
	if r.Role == "" { // not a message: a link of the chain, in the turn it falls in
		s.lastUUID = r.UUID
		return s.lastTurn, nil
	}
	turn := nextTurn(s.lastTurn, !s.talking, r.Type == TypeUser && !r.Continues)
	s.lastUUID, s.lastTurn, s.talking = r.UUID, turn, true
	return turn, nil
}

// snapshotImport puts the file snapshots of imported records; the session is locked.
type snapshotImport struct {
	s     *Session
	held  map[string]bool // the ids of the session's snapshots, read when first needed
	added bool            // a snapshot of a record already stored was put
}

// putMissing puts the snapshot of a record the session already holds, unless the session
// holds it too (a session imported before its snapshots were read gets them; importing
// again writes nothing).
func (si *snapshotImport) putMissing(r *Record) error {
	if r.FileSnapshot == nil {
		return nil
	}
	if si.held == nil {
		list, err := si.s.mgr.store.FileSnapshots(si.s.id)
		if err != nil {
			return err
		}
		si.held = make(map[string]bool, len(list))
		for _, snap := range list {
			si.held[snap.ID] = true
		}
	}
	if si.held[r.FileSnapshot.ID] {
		return nil
	}
	si.added = true
	return si.put(r)
}

// put queues the file snapshot r carries, if any.
func (si *snapshotImport) put(r *Record) error {
	if r.FileSnapshot == nil {
		return nil
	}
	snap := *r.FileSnapshot
	if snap.ID == "" {
		return fmt.Errorf("%w: the file snapshot of record %s has no id", ErrInvalidArgument, r.UUID)
	}
	if err := checkSnapshot(&snap); err != nil {
		return err
	}
	if snap.CreatedAt.IsZero() {
		snap.CreatedAt = r.CreatedAt
	}
	si.s.mgr.store.Apply(PutFileSnapshot{SessionID: si.s.id, Snapshot: snap})
	return nil
}

// applyRecord queues r as message seq nextSeq.
func (s *Session) applyRecord(r *Record, turn int64) {
	status := r.Status
	if status == "" {
		status = MessageComplete
	}
	extra := r.Extra
	if len(extra) > 0 {
		extra = s.redact(s.mgr.redactor.JSON(extra)) // execution records and the source's own fields
	}
	hdr := MessageHeader{
		Seq: s.nextSeq, UUID: r.UUID, ParentUUID: r.ParentUUID, Type: r.Type, Role: r.Role, Turn: turn,
		CreatedAt: r.CreatedAt, Provider: r.Provider, RequestID: r.RequestID,
		IsSidechain: r.IsSidechain, Continues: r.Continues, Meta: r.Meta, Extra: extra,
	}
	s.nextSeq++
	ops := make([]Op, 0, len(r.Blocks)+2)
	ops = append(ops, BeginMessage{SessionID: s.id, Header: hdr})
	for i, b := range r.Blocks {
		ops = append(ops, PutBlock{SessionID: s.id, Seq: hdr.Seq, Index: i, JSON: s.redact(s.mgr.redactor.Block(b.JSON)), ToolUseID: b.ToolUseID})
	}
	var usage Usage
	if r.Usage != nil {
		usage = *r.Usage
	}
	ops = append(ops, EndMessage{SessionID: s.id, Seq: hdr.Seq, Status: status, Meta: r.Meta, Extra: extra, Usage: usage})
	s.mgr.store.Apply(ops...)
}

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
