package migrate

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
)

// copyRest puts on the target what an import of a session's records does not carry, each piece only
// when the target lacks it, so that a second run adds nothing: state is the source's.
func copyRest(src, dst store, state session.SessionState) error {
	id := state.Info.ID
	dst.Apply(session.SetTracker{SessionID: id, Tracker: state.Tracker})
	// LoadSession reads what is committed: the records just imported must be, whatever
	// the import itself waited for.
	if err := dst.Sync(); err != nil {
		return err
	}
	have, err := dst.LoadSession(id)
	if err != nil {
		return err
	}
	for _, step := range []func(src, dst store, state, have session.SessionState) error{
		copyHead, copyHostedState, copyHistory, copySnapshots, copySummaries, copyCompactions, copyContextState, copyStatus,
	} {
		if err := step(src, dst, state, have); err != nil {
			return err
		}
	}
	// The ops above count as activity in a listing: the session was last active when the
	// source says, not now.
	dst.Apply(session.SetUpdatedAt{SessionID: id, Time: state.Info.UpdatedAt})
	return nil
}

// copyHead moves the head of a rewound session where the source has it: an import leaves
// it at the last record.
func copyHead(_, dst store, state, have session.SessionState) error {
	if state.LastUUID != "" && state.LastUUID != have.LastUUID {
		dst.Apply(session.MoveHead{SessionID: state.Info.ID, UUID: state.LastUUID, AtSeq: state.NextSeq, At: state.Info.UpdatedAt})
	}
	return nil
}

// copyHostedState copies a hosted agent's checkpoint, SDK session and redaction count (its
// key came with the session).
func copyHostedState(_, dst store, state, have session.SessionState) error {
	info, id := state.Info, state.Info.ID
	if info.Checkpoint != nil && (have.Info.Checkpoint == nil || *have.Info.Checkpoint != *info.Checkpoint) {
		dst.Apply(session.SetCheckpoint{SessionID: id, Checkpoint: *info.Checkpoint, SeenSeq: info.SeenSeq})
	}
	if info.SDKSession != have.Info.SDKSession {
		dst.Apply(session.SetSDKSession{SessionID: id, SDKSessionID: info.SDKSession, Seen: true, SeenSeq: info.SeenSeq})
	}
	if n := info.Redactions - have.Info.Redactions; n > 0 {
		dst.Apply(session.AddRedactions{SessionID: id, Count: int(n)})
	}
	return nil
}

// copyHistory appends the entries of a stateless responder's manual history the target
// lacks: history only grows, so the target holds a prefix of the source's.
func copyHistory(src, dst store, state, _ session.SessionState) error {
	id := state.Info.ID
	want, err := src.History(id, 0)
	if err != nil {
		return err
	}
	held, err := dst.History(id, 0)
	if err != nil {
		return err
	}
	for _, e := range want[min(len(held), len(want)):] {
		dst.Apply(session.AddHistory{SessionID: id, Role: e.Role, Content: e.Content, At: e.At})
	}
	return nil
}

// copySnapshots puts the file snapshots the target lacks, with the content they backed up.
func copySnapshots(src, dst store, state, _ session.SessionState) error {
	id := state.Info.ID
	want, err := src.FileSnapshots(id)
	if err != nil || len(want) == 0 {
		return err
	}
	list, err := dst.FileSnapshots(id)
	if err != nil {
		return err
	}
	held := make(map[string]bool, len(list))
	for _, s := range list {
		held[s.ID] = true
	}
	for _, snap := range want {
		if held[snap.ID] {
			continue
		}
		for i := range snap.Files {
			f := &snap.Files[i]
			if !f.BackedUp {
				continue
			}
			if f.Content, err = src.FileContent(id, snap.ID, f.Path); err != nil {
				return err
			}
		}
		dst.Apply(session.PutFileSnapshot{SessionID: id, Snapshot: snap})
	}
	return nil
}

// copySummaries caches the source's summaries; the target keeps one it has for a range.
func copySummaries(src, dst store, state, _ session.SessionState) error {
	id := state.Info.ID
	list, err := src.Summaries(id, -1)
	for _, s := range list {
		dst.Apply(contextbuild.PutSummary{SessionID: id, Summary: s})
	}
	return err
}

// copyCompactions records the compaction boundaries the target lacks, oldest first.
func copyCompactions(src, dst store, state, _ session.SessionState) error {
	id := state.Info.ID
	want, err := src.Compactions(id)
	if err != nil || len(want) == 0 {
		return err
	}
	list, err := dst.Compactions(id)
	if err != nil {
		return err
	}
	type boundary struct {
		seq int64
		at  time.Time
	}
	held := make(map[boundary]bool, len(list))
	for _, c := range list {
		held[boundary{c.Seq, c.CreatedAt.UTC()}] = true
	}
	for _, c := range want {
		if !held[boundary{c.Seq, c.CreatedAt.UTC()}] {
			dst.Apply(contextbuild.PutCompaction{SessionID: id, Compaction: c})
		}
	}
	return nil
}

// copyContextState records the folded session state when the source's reaches further.
func copyContextState(src, dst store, state, _ session.SessionState) error {
	id := state.Info.ID
	folded, through, err := src.ContextState(id)
	if err != nil || folded == nil {
		return err
	}
	_, have, err := dst.ContextState(id)
	if err != nil || (have >= through) {
		return err
	}
	dst.Apply(contextbuild.PutContextState{SessionID: id, State: folded, Through: through})
	return nil
}

// copyStatus archives a session archived in the source and marks interrupted one that was:
// after an import the target's session is active.
func copyStatus(_, dst store, state, have session.SessionState) error {
	info, id := state.Info, state.Info.ID
	if !info.ArchivedAt.IsZero() && have.Info.ArchivedAt.IsZero() {
		dst.Apply(session.SetArchived{SessionID: id, At: info.ArchivedAt})
	}
	if info.Status == session.StatusInterrupted && have.Info.Status != session.StatusInterrupted {
		dst.Apply(session.CloseSession{SessionID: id, At: info.LastAccessedAt, Interrupted: true})
	}
	return nil
}
