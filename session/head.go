package session

// The head of a session and the branch that ends at it (seed 002). Records link to their
// parent by parentUuid, so a session is a tree; its head is the main-chain record the next
// message follows, normally the newest one. Messages, envelopes, turns and the token
// tracker follow the branch that ends at the head; package branches moves the head
// (Rewind) and copies a branch into a new session (Fork) through BeginHeadChange.

// Head returns the uuid of the main-chain record the next message follows: the newest one,
// or the one a rewind moved the head to; "" when the session has no messages.
func (s *Session) Head() (string, error) {
	if err := s.lock(); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	return s.chain.lastUUID, nil
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
	return s.branchedTree()
}

// branchedTree returns the tree of a session that branched and the records on the branch
// that ends at the head, worked out again only after a write or a rewind.
func (s *Session) branchedTree() (*tree, []bool, error) {
	if err := s.lock(); err != nil {
		return nil, nil, err
	}
	key, memo := branchMemo{head: s.chain.lastUUID, nextSeq: s.chain.nextSeq}, s.branch
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
