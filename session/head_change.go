package session

// Head is where a session's next message goes, as BeginHeadChange hands it to be moved.
type Head struct {
	UUID    string       // the main-chain record the next message follows; "" when none
	Turn    int64        // that record's turn
	Tracker TokenTracker // the session's token accounting, which follows its branch
}

// BeginHeadChange is how package branches moves a session's head (Rewind) or reads it to
// copy a branch (Fork). It takes the session and returns the function that does the
// change, which must be called, on any goroutine: every other call on the session waits
// from now until that function has returned, so a change whose work (reading the tree)
// runs off the JS thread still comes before anything recorded after it was asked for.
//
// That function first makes everything recorded readable: with interrupt, a message still
// being written ends as interrupted (the next message cannot go on past a head that
// moved); without, the block streaming is checkpointed. Then it calls change with the
// session's tree as the store holds it and the head. When change alters the head, the
// session moves there: the next message follows the record change names (which must be a
// main-chain record of t), a subagent that goes on starts again from its tool call, the
// tool calls off the new branch are forgotten, and the move and the tracker are recorded.
func (s *Session) BeginHeadChange(interrupt bool, change func(t TreeShape, head *Head) error) (func() error, error) {
	if err := s.lock(); err != nil {
		return nil, err
	}
	return func() error {
		defer s.mu.Unlock()
		return s.changeHead(interrupt, change)
	}, nil
}

// changeHead does what BeginHeadChange describes; the session is locked.
func (s *Session) changeHead(interrupt bool, change func(t TreeShape, head *Head) error) error {
	if interrupt {
		s.asm.endOpen(true)
	} else {
		s.asm.checkpoint()
	}
	s.queueGathered()
	if err := s.mgr.store.Sync(); err != nil {
		return err
	}
	t, err := s.loadTree()
	if err != nil {
		return err
	}
	before := Head{UUID: s.chain.lastUUID, Turn: s.chain.lastTurn, Tracker: s.tracker}
	head := before
	if err := change(t.shape(t.find(s.chain.lastUUID)), &head); err != nil || head == before {
		return err
	}
	s.tracker = head.Tracker
	s.chain.moveHead(head.UUID, head.Turn)
	s.forgetCallsOffBranch(t, t.branch(t.find(head.UUID)))
	s.mgr.store.Apply(
		MoveHead{SessionID: s.id, UUID: head.UUID, AtSeq: s.chain.nextSeq, At: s.mgr.now().UTC()},
		SetTracker{SessionID: s.id, Tracker: s.tracker},
	)
	return nil
}
