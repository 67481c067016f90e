package importing

import (
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
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
	Status     string // session.MessageComplete when empty
	// IsSidechain and Continues are as in session.MessageHeader. ParentToolUseID, for a
	// sidechain record, names the tool call that started it: the record takes that call's
	// turn.
	IsSidechain     bool
	Continues       bool
	ParentToolUseID string
	Meta            []byte // JSON object: the message fields beside role and content
	Extra           []byte // JSON object: session.EnvelopeExtra
	Blocks          []session.RecordBlock
	// Usage is the usage of the request this record reports, counted in the token tracker
	// once: on one record of a message written over several.
	Usage *session.Usage
	// FileSnapshot, when not nil, is the state of files the record tells (a Claude Code
	// file-history-snapshot record), put with it. Its ID must be the same on every import
	// of the record, so that importing it again does not put it twice; it is put even when
	// the record is already stored, so a session imported before its snapshots were read
	// gets them.
	FileSnapshot *session.FileSnapshot
}

// ImportTarget is the session records are imported into: the one with Info.ID, created
// with Info when it does not exist. Tracker, when given, replaces the token tracker of a
// session the import created, once its records are in.
type ImportTarget struct {
	Info    session.SessionInfo
	Tracker *session.TokenTracker
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
func Import(m *session.Manager, target ImportTarget, recs []Record) (ImportCount, error) {
	st, err := Begin(m, target)
	if err != nil {
		return ImportCount{}, err
	}
	if err := st.Add(recs); err != nil {
		st.s.Close()
		return st.count, err
	}
	return st.Close()
}

// sidechainTurn returns the turn of a sidechain record: that of the call that started it
// (recorded before, or earlier in this import), else the head's. A record of the main
// conversation is numbered by Append, as a live message would be; sidechainTurn returns 0
// for it.
func sidechainTurn(st Store, sessionID string, w *session.RecordWriter, r *Record, calls *callTurns) (int64, error) {
	if !r.IsSidechain {
		return 0, nil
	}
	if r.ParentToolUseID == "" {
		return w.LastTurn(), nil
	}
	if turn, ok := calls.get(r.ParentToolUseID); ok {
		return turn, nil
	}
	turn, found, err := toolUseTurn(st, sessionID, r.ParentToolUseID)
	if found {
		calls.put(r.ParentToolUseID, turn)
	} else {
		turn = w.LastTurn()
		calls.putUnheld(r.ParentToolUseID, turn)
	}
	return turn, err
}

// header is the envelope r gives its message, in turn; Append numbers it.
func header(r *Record, turn int64) session.MessageHeader {
	return session.MessageHeader{
		UUID: r.UUID, ParentUUID: r.ParentUUID, Type: r.Type, Role: r.Role, Turn: turn,
		CreatedAt: r.CreatedAt, Provider: r.Provider, RequestID: r.RequestID,
		IsSidechain: r.IsSidechain, Continues: r.Continues, Meta: r.Meta, Extra: r.Extra,
	}
}

// snapshotImport puts the file snapshots of imported records; the session is locked.
type snapshotImport struct {
	st    Store
	id    string
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
		list, err := si.st.FileSnapshots(si.id)
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
		return fmt.Errorf("%w: the file snapshot of record %s has no id", session.ErrInvalidArgument, r.UUID)
	}
	if snap.CreatedAt.IsZero() {
		snap.CreatedAt = r.CreatedAt
	}
	if err := snapshots.Check(&snap); err != nil {
		return err
	}
	si.st.Apply(session.PutFileSnapshot{SessionID: si.id, Snapshot: snap})
	return nil
}
