package branches

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/sessionkeep/sessionkeep/session"
)

// The branches of a session (seed 002). Records link to their parent by parentUuid, so a
// session is a tree; its head is the main-chain record the next message follows, normally
// the newest one. Rewind moves the head back to any main-chain record without deleting
// anything: messages, envelopes, turns and the token tracker then follow the branch that
// ends at the head, and the next message starts a new branch there. Fork copies the branch
// that ends at a record into a new session that remembers where it came from.

// mainRecord returns the index of the main-chain record uuid in t, for an operation named
// op on session sessionID: ErrMessageNotFound when the session has no such record,
// ErrInvalidArgument when it is on a sidechain.
func mainRecord(t session.TreeShape, sessionID, uuid, op string) (int, error) {
	i := t.Find(uuid)
	switch {
	case i < 0:
		return -1, fmt.Errorf("%w: session %s has no message %q to %s", session.ErrMessageNotFound, sessionID, uuid, op)
	case t.Links[i].IsSidechain:
		return -1, fmt.Errorf("%w: message %s is on a sidechain (a subagent's conversation); %s needs a message of the main conversation", session.ErrInvalidArgument, uuid, op)
	}
	return i, nil
}

// Rewind moves the session's head back to the main-chain record toUUID, so that the next
// message follows it and starts a new branch; nothing is deleted. A message still
// streaming is ended as interrupted first. The token tracker becomes the new branch's:
// the requests of the branch left no longer count, those of the branch returned to do.
// Rewinding to a record on another branch switches to that branch.
func Rewind(s *session.Session, toUUID string) error {
	rewind, err := BeginRewind(s, toUUID)
	if err != nil {
		return err
	}
	return rewind()
}

// BeginRewind takes the session for a rewind to toUUID and returns the function that does
// it, which must be called, on any goroutine. Every other call on the session waits from
// now until that function has returned, so a rewind whose work (reading the session's
// tree) runs off the JS thread still comes before anything recorded after it was asked for.
func BeginRewind(s *session.Session, toUUID string) (func() error, error) {
	if toUUID == "" {
		return nil, fmt.Errorf("%w: the uuid to rewind to is empty", session.ErrInvalidArgument)
	}
	return s.BeginHeadChange(true, func(t session.TreeShape, head *session.Head) error {
		return rewind(t, s.ID(), head, toUUID)
	})
}

// rewind moves head, the head of session sessionID whose tree is t, to toUUID.
func rewind(t session.TreeShape, sessionID string, head *session.Head, toUUID string) error {
	to, err := mainRecord(t, sessionID, toUUID, "rewind to")
	if err != nil {
		return err
	}
	if to == t.Head {
		return nil
	}
	head.Tracker = moveTracker(head.Tracker, usage(t.Links, t.OnBranch), usage(t.Links, t.Branch(to)))
	head.UUID, head.Turn = toUUID, t.Links[to].Turn
	return nil
}

// Fork makes a new session that shares this one's history up to the main-chain record
// fromUUID (the head when empty): the records of the branch that ends there, copied with
// their uuids, blocks, state and file snapshots. The new session records where it came
// from (SessionInfo.ForkedFrom) and is returned open; s is left as it is.
func Fork(s *session.Session, fromUUID string) (*session.Session, error) {
	plan, err := planFork(s, fromUUID)
	if err != nil {
		return nil, err
	}
	ops := []session.Op{plan.op}
	if plan.moveHead {
		ops = append(ops, session.MoveHead{SessionID: plan.state.Info.ID, UUID: plan.state.LastUUID, AtSeq: plan.state.NextSeq, At: plan.state.Info.CreatedAt})
	}
	return s.Manager().Adopt(plan.state, ops...)
}

// forkPlan is what a fork copies and what the new session continues from.
type forkPlan struct {
	op    session.ForkSession
	state session.SessionState
	// moveHead says that the record forked from is not the newest main-chain record copied
	// (a record hanging off the branch was written after it), so the fork's head is set.
	moveHead bool
}

// planFork works out a fork under the session's lock, so that nothing is recorded between
// reading the tree and reading the token tracker.
func planFork(s *session.Session, fromUUID string) (forkPlan, error) {
	var plan forkPlan
	read, err := s.BeginHeadChange(false, func(t session.TreeShape, head *session.Head) error {
		var err error
		plan, err = planForkAt(s, t, *head, fromUUID)
		return err
	})
	if err != nil {
		return forkPlan{}, err
	}
	return plan, read()
}

// planForkAt works out a fork of s, whose tree is t and head is head, from fromUUID.
func planForkAt(s *session.Session, t session.TreeShape, head session.Head, fromUUID string) (forkPlan, error) {
	if fromUUID == "" {
		fromUUID = head.UUID
	}
	if fromUUID == "" {
		return forkPlan{}, fmt.Errorf("%w: session %s has no messages to fork", session.ErrInvalidArgument, s.ID())
	}
	origin, err := s.Store().LoadSession(s.ID())
	if err != nil {
		return forkPlan{}, err
	}
	from, err := mainRecord(t, s.ID(), fromUUID, "fork from")
	if err != nil {
		return forkPlan{}, err
	}
	on := t.Branch(from)
	tracker := moveTracker(head.Tracker, usage(t.Links, t.OnBranch), usage(t.Links, on))
	seqs := t.Seqs(on)
	now := s.Now().UTC()
	o := origin.Info
	info := session.SessionInfo{
		ID: uuid.Must(uuid.NewV7()).String(), ProjectPath: o.ProjectPath, Title: o.Title, Provider: o.Provider,
		Model: o.Model, ContextWindow: o.ContextWindow, CreatedAt: now, UpdatedAt: now, Status: session.StatusActive,
		ForkedFrom: &session.ForkOrigin{SessionID: s.ID(), UUID: fromUUID},
	}
	lastMain := int64(-1)
	for i, l := range t.Links {
		if on[i] && !l.IsSidechain {
			lastMain = l.Seq
		}
	}
	return forkPlan{
		op: session.ForkSession{Info: info, From: s.ID(), Seqs: seqs, Tracker: tracker},
		state: session.SessionState{Info: info, Tracker: tracker, NextSeq: int64(len(seqs)), LastUUID: fromUUID,
			LastTurn: t.Links[from].Turn},
		moveHead: lastMain != t.Links[from].Seq,
	}, nil
}

// usage returns the token accounting of the requests the records of links that are on
// made, in order.
func usage(links []session.Link, on []bool) session.TokenTracker {
	var sum session.TokenTracker
	for i, l := range links {
		if on[i] && l.Usage != (session.Usage{}) {
			sum.Add(l.Usage)
		}
	}
	return sum
}

// moveTracker returns the token tracker of a session moving from the branch whose requests
// add up to from to the one whose requests add up to to. Tokens the tracker holds beyond
// its branch's requests (a tracker restored from elsewhere) stay; the context size is the
// new branch's.
func moveTracker(current, from, to session.TokenTracker) session.TokenTracker {
	return session.TokenTracker{
		InputTokens:              max(0, current.InputTokens-from.InputTokens) + to.InputTokens,
		OutputTokens:             max(0, current.OutputTokens-from.OutputTokens) + to.OutputTokens,
		CacheReadInputTokens:     max(0, current.CacheReadInputTokens-from.CacheReadInputTokens) + to.CacheReadInputTokens,
		CacheCreationInputTokens: max(0, current.CacheCreationInputTokens-from.CacheCreationInputTokens) + to.CacheCreationInputTokens,
		ContextTokens:            to.ContextTokens,
	}
}
