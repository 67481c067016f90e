package importing

import (
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// Stream imports the records of one session in batches, as a reader that streams a file
// gives them: Begin, Add for each batch in the file's order, Close. What an import matches
// and numbers by (the uuids the session holds, the turns of tool calls) is kept from one
// batch to the next, so the result is the same as one Import of every record. Each batch
// is appended under the session's lock of its own.
type Stream struct {
	st     Store
	s      *session.Session
	target ImportTarget
	count  ImportCount
	before time.Time    // when the session was last active before the import
	loaded bool         // the first batch has read when the session was last active
	added  *addedFilter // the uuids added, when the session held nothing before the import
	calls  *callTurns
	snaps  *snapshotImport
	last   time.Time // the time of the last record added
}

// Begin opens (or creates) the session target names for a Stream of its records.
func Begin(m *session.Manager, target ImportTarget) (*Stream, error) {
	if target.Info.ID == "" {
		return nil, fmt.Errorf("%w: an imported session needs an id", session.ErrInvalidArgument)
	}
	st, err := storeOf(m)
	if err != nil {
		return nil, err
	}
	s, created, err := m.OpenOrCreate(target.Info)
	if err != nil {
		return nil, err
	}
	in := &Stream{st: st, s: s, target: target, count: ImportCount{Created: created}, calls: newCallTurns(),
		snaps: &snapshotImport{st: st, id: s.ID()}}
	if created {
		in.added = newAddedFilter(addedFilterMaxBytes)
	}
	return in, nil
}

// Add appends the records of recs the session does not hold yet. It first waits until the
// store has written the batch before (the reader converts the next batch meanwhile): the
// store's queue, which grows without bound when a reader outruns it, then holds one batch
// at the most.
func (in *Stream) Add(recs []Record) error {
	return in.s.WriteRecords(func(w *session.RecordWriter) error {
		if !in.loaded {
			if err := in.load(); err != nil {
				return err
			}
		} else if err := in.st.Sync(); err != nil {
			return err
		}
		in.calls.beginBatch()
		held, err := in.heldOf(recs)
		if err != nil {
			return err
		}
		for i := range recs {
			r := &recs[i]
			in.last = r.CreatedAt
			if _, ok := held[r.UUID]; ok {
				in.count.Existing++
				if err := in.snaps.putMissing(r); err != nil {
					return err
				}
				continue
			}
			held[r.UUID] = struct{}{}
			if in.added != nil && !in.added.add(r.UUID) {
				in.added = nil // full: the store is asked for every uuid from here on
			}
			turn, err := sidechainTurn(in.st, in.s.ID(), w, r, in.calls)
			if err != nil {
				return err
			}
			turn = w.Append(header(r, turn), r.Blocks, r.Status, r.Usage)
			if err := in.snaps.put(r); err != nil {
				return err
			}
			for _, b := range r.Blocks {
				if b.ToolUseID != "" {
					in.calls.put(b.ToolUseID, turn)
				}
			}
			in.count.Added++
		}
		return nil
	})
}

// heldOf returns which of the uuids of recs the session holds, asking the store (every
// batch before this one is committed: Add syncs first) for those it may hold: all, unless
// the import created the session, when only those its filter of what it added may hold. A
// record met twice in this batch is added to the set as it is appended.
func (in *Stream) heldOf(recs []Record) (map[string]struct{}, error) {
	ask := make([]string, 0, len(recs))
	for i := range recs {
		if in.added == nil || in.added.mayHold(recs[i].UUID) {
			ask = append(ask, recs[i].UUID)
		}
	}
	return in.st.HeldUUIDs(in.s.ID(), ask)
}

// load reads, under the session's lock, when the session was last active.
func (in *Stream) load() error {
	if err := in.st.Sync(); err != nil {
		return err
	}
	state, err := in.st.LoadSession(in.s.ID())
	if err != nil {
		return err
	}
	in.before, in.loaded = state.Info.UpdatedAt, true
	return nil
}

// Close finishes the import: the session was last active when its latest record was
// written (as its source says), not when it was imported; a session the import created
// takes the target's token tracker. It closes the session and returns what the import did.
func (in *Stream) Close() (ImportCount, error) {
	defer in.s.Close()
	if in.snaps.added && in.count.Added == 0 { // only snapshots: the session was not active now
		in.st.Apply(session.SetUpdatedAt{SessionID: in.s.ID(), Time: in.before})
	}
	if in.count.Added == 0 {
		return in.count, nil
	}
	var err error
	if in.count.Created && in.target.Tracker != nil {
		err = in.s.RestoreTokenTracker(*in.target.Tracker)
	}
	updated := in.target.Info.UpdatedAt
	if updated.IsZero() {
		updated = in.last
	}
	if in.before.After(updated) {
		updated = in.before
	}
	in.st.Apply(session.SetUpdatedAt{SessionID: in.s.ID(), Time: updated})
	if in.count.Created { // last used when its source says, or at its last record
		used := in.target.Info.LastAccessedAt
		if used.IsZero() {
			used = updated
		}
		in.st.Apply(session.AccessSession{SessionID: in.s.ID(), At: used})
	}
	return in.count, err
}

// Count returns what the import has done so far.
func (in *Stream) Count() ImportCount { return in.count }

// ID returns the id of the session the records go to.
func (in *Stream) ID() string { return in.s.ID() }
