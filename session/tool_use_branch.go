package session

import "sort"

// knownCall is a tool call this process knows of: the chain it is on and its record.
type knownCall struct {
	side sidechain
	seq  int64
}

// onBranchLocked reports whether record seq is on the branch that ends at the head; the
// session is locked. A session that never branched holds every record on it.
func (s *Session) onBranchLocked(seq int64) (bool, error) {
	s.queueGathered()
	if err := s.mgr.store.Sync(); err != nil { // the tree must hold what this session queued
		return false, err
	}
	branched, err := s.mgr.store.Branched(s.id)
	if err != nil || !branched {
		return true, err
	}
	key, memo := branchMemo{head: s.chain.lastUUID, nextSeq: s.chain.nextSeq}, s.branch
	if memo == nil || memo.head != key.head || memo.nextSeq != key.nextSeq {
		t, err := s.loadTree()
		if err != nil {
			return false, err
		}
		key.tree, key.on = t, t.branch(t.find(key.head))
		memo, s.branch = &key, &key
	}
	return seqOnBranch(memo.tree, memo.on, seq), nil
}

// forgetCallsOffBranch forgets the tool calls known to this process that are not on the
// branch on of t, so that a result for one of them is refused; the session is locked.
func (s *Session) forgetCallsOffBranch(t *tree, on []bool) {
	s.asm.forgetCalls(func(seq int64) bool { return !seqOnBranch(t, on, seq) })
}

// seqOnBranch reports whether record seq of t is on the branch on.
func seqOnBranch(t *tree, on []bool, seq int64) bool {
	i := sort.Search(len(t.links), func(i int) bool { return t.links[i].Seq >= seq })
	return i < len(t.links) && t.links[i].Seq == seq && on[i]
}
