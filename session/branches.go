package session

import (
	"fmt"

	"github.com/google/uuid"
)

// The branches of a session (seed 002). Records link to their parent by parentUuid, so a
// session is a tree; its head is the main-chain record the next message follows, normally
// the newest one. Rewind moves the head back to any main-chain record without deleting
// anything: messages, envelopes, turns and the token tracker then follow the branch that
// ends at the head, and the next message starts a new branch there. Fork copies the branch
// that ends at a record into a new session that remembers where it came from.

// Head returns the uuid of the main-chain record the next message follows: the newest one,
// or the one a rewind moved the head to; "" when the session has no messages.
func (s *Session) Head() (string, error) {
	if err := s.lock(); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	return s.lastUUID, nil
}

// loadTree reads the session's tree from the store.
func (s *Session) loadTree() (*tree, error) {
	var links []Link
	err := s.mgr.store.ScanLinks(s.id, func(l *Link) error {
		links = append(links, *l)
		return nil
	})
	return newTree(links), err
}

// currentBranch returns the session's tree and the records on the branch that ends at the
// head; a nil tree when every record is on it, because the session never branched.
func (s *Session) currentBranch() (*tree, []bool, error) {
	branched, err := s.mgr.store.Branched(s.id)
	if err != nil || !branched {
		return nil, nil, err
	}
	if err := s.lock(); err != nil {
		return nil, nil, err
	}
	key, memo := branchMemo{head: s.lastUUID, nextSeq: s.nextSeq}, s.branch
	s.mu.Unlock()
	if memo != nil && memo.head == key.head && memo.nextSeq == key.nextSeq {
		return memo.tree, memo.on, nil
	}
	t, err := s.loadTree()
	if err != nil {
		return nil, nil, err
	}
	key.tree, key.on = t, t.branch(t.find(key.head))
	s.mu.Lock()
	s.branch = &key
	s.mu.Unlock()
	return key.tree, key.on, nil
}

// branchMemo is the branch a session last worked out, with what it depends on: the head
// and how many records were written. Reads before the next write or rewind reuse it.
type branchMemo struct {
	head    string
	nextSeq int64
	tree    *tree
	on      []bool
}

// scanBranch calls fn for each record of the branch that ends at the head, in order.
func (s *Session) scanBranch(fn func(*StoredMessage) error) error {
	t, on, err := s.currentBranch()
	if err != nil {
		return err
	}
	if t == nil {
		return s.mgr.store.ScanMessages(s.id, fn)
	}
	seqs, next := t.seqs(on), 0
	return s.mgr.store.ScanMessages(s.id, func(m *StoredMessage) error {
		for next < len(seqs) && seqs[next] < m.Seq {
			next++
		}
		if next == len(seqs) || seqs[next] != m.Seq {
			return nil
		}
		return fn(m)
	})
}

// mainRecord returns the index of the main-chain record uuid in t, for an operation named
// op: ErrMessageNotFound when the session has no such record, ErrInvalidArgument when it
// is on a sidechain.
func (s *Session) mainRecord(t *tree, uuid, op string) (int, error) {
	i := t.find(uuid)
	switch {
	case i < 0:
		return -1, fmt.Errorf("%w: session %s has no message %q to %s", ErrMessageNotFound, s.id, uuid, op)
	case t.links[i].IsSidechain:
		return -1, fmt.Errorf("%w: message %s is on a sidechain (a subagent's conversation); %s needs a message of the main conversation", ErrInvalidArgument, uuid, op)
	}
	return i, nil
}

// Rewind moves the session's head back to the main-chain record toUUID, so that the next
// message follows it and starts a new branch; nothing is deleted. A message still
// streaming is ended as interrupted first. The token tracker becomes the new branch's:
// the requests of the branch left no longer count, those of the branch returned to do.
// Rewinding to a record on another branch switches to that branch.
func (s *Session) Rewind(toUUID string) error {
	rewind, err := s.BeginRewind(toUUID)
	if err != nil {
		return err
	}
	return rewind()
}

// BeginRewind takes the session for a rewind to toUUID and returns the function that does
// it, which must be called, on any goroutine. Every other call on the session waits from
// now until that function has returned, so a rewind whose work (reading the session's
// tree) runs off the JS thread still comes before anything recorded after it was asked for.
func (s *Session) BeginRewind(toUUID string) (func() error, error) {
	if toUUID == "" {
		return nil, fmt.Errorf("%w: the uuid to rewind to is empty", ErrInvalidArgument)
	}
	if err := s.lock(); err != nil {
		return nil, err
	}
	return func() error {
		defer s.mu.Unlock()
		return s.rewind(toUUID)
	}, nil
}

// rewind moves the head to toUUID; the session is locked.
func (s *Session) rewind(toUUID string) error {
	s.endOpen(true) // the message being written cannot go on past a head that moved
	if err := s.mgr.store.Sync(); err != nil {
		return err
	}
	t, err := s.loadTree()
	if err != nil {
		return err
	}
	to, err := s.mainRecord(t, toUUID, "rewind to")
	if err != nil {
		return err
	}
	from := t.find(s.lastUUID)
	if to == from {
		return nil
	}
	s.tracker = moveTracker(s.tracker, t.usage(t.branch(from)), t.usage(t.branch(to)))
	s.lastUUID, s.lastTurn, s.lastSide = toUUID, t.links[to].Turn, sidechain{}
	s.sideLast = map[string]string{} // a subagent that goes on starts again from its tool call
	s.forgetCallsOffBranch(t, t.branch(to))
	s.mgr.store.Apply(
		MoveHead{SessionID: s.id, UUID: toUUID, AtSeq: s.nextSeq, At: s.mgr.now().UTC()},
		SetTracker{SessionID: s.id, Tracker: s.tracker},
	)
	return nil
}

// Fork makes a new session that shares this one's history up to the main-chain record
// fromUUID (the head when empty): the records of the branch that ends there, copied with
// their uuids, blocks, state and file snapshots. The new session records where it came
// from (SessionInfo.ForkedFrom) and is returned open; this one is left as it is.
func (s *Session) Fork(fromUUID string) (*Session, error) {
	plan, err := s.planFork(fromUUID)
	if err != nil {
		return nil, err
	}
	return s.mgr.fork(plan)
}

// forkPlan is what a fork copies and what the new session continues from.
type forkPlan struct {
	op    ForkSession
	state SessionState
	// moveHead says that the record forked from is not the newest main-chain record copied
	// (a record hanging off the branch was written after it), so the fork's head is set.
	moveHead bool
}

// planFork works out a fork under the session's lock, so that nothing is recorded between
// reading the tree and reading the token tracker.
func (s *Session) planFork(fromUUID string) (forkPlan, error) {
	if err := s.lock(); err != nil {
		return forkPlan{}, err
	}
	defer s.mu.Unlock()
	s.checkpoint()
	if fromUUID == "" {
		fromUUID = s.lastUUID
	}
	if fromUUID == "" {
		return forkPlan{}, fmt.Errorf("%w: session %s has no messages to fork", ErrInvalidArgument, s.id)
	}
	if err := s.mgr.store.Sync(); err != nil {
		return forkPlan{}, err
	}
	origin, err := s.mgr.store.LoadSession(s.id)
	if err != nil {
		return forkPlan{}, err
	}
	t, err := s.loadTree()
	if err != nil {
		return forkPlan{}, err
	}
	from, err := s.mainRecord(t, fromUUID, "fork from")
	if err != nil {
		return forkPlan{}, err
	}
	on := t.branch(from)
	tracker := moveTracker(s.tracker, t.usage(t.branch(t.find(s.lastUUID))), t.usage(on))
	seqs := t.seqs(on)
	now := s.mgr.now().UTC()
	o := origin.Info
	info := SessionInfo{
		ID: uuid.Must(uuid.NewV7()).String(), ProjectPath: o.ProjectPath, Title: o.Title, Provider: o.Provider,
		Model: o.Model, ContextWindow: o.ContextWindow, CreatedAt: now, UpdatedAt: now, Status: StatusActive,
		ForkedFrom: &ForkOrigin{SessionID: s.id, UUID: fromUUID},
	}
	lastMain := int64(-1)
	for i, l := range t.links {
		if on[i] && !l.IsSidechain {
			lastMain = l.Seq
		}
	}
	return forkPlan{
		op: ForkSession{Info: info, From: s.id, Seqs: seqs, Tracker: tracker},
		state: SessionState{Info: info, Tracker: tracker, NextSeq: int64(len(seqs)), LastUUID: fromUUID,
			LastTurn: t.links[from].Turn},
		moveHead: lastMain != t.links[from].Seq,
	}, nil
}

// fork creates the session a fork plan describes and opens it.
func (m *Manager) fork(plan forkPlan) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrStoreClosed
	}
	id := plan.state.Info.ID
	m.store.Apply(plan.op)
	if plan.moveHead {
		m.store.Apply(MoveHead{SessionID: id, UUID: plan.state.LastUUID, AtSeq: plan.state.NextSeq, At: plan.state.Info.CreatedAt})
	}
	s := newSession(m, plan.state)
	m.live[id] = s
	return s, nil
}
