package session

import "github.com/sessionkeep/sessionkeep/session/jsonenc"

// scanBranchEncoded calls fn for each of the last n records (all when n < 0) of the branch
// that ends at the head, in order, as the store's ScanEncoded gives them. A session that
// never branched (most) is asked and read in one go (ScanEncodedUnbranched); one that
// branched is read through its tree.
func (s *Session) scanBranchEncoded(n int, fn func(*StoredMessage) error) error {
	s.mu.Lock()
	from := int64(0)
	if n >= 0 {
		from = max(0, s.chain.nextSeq-int64(n))
	}
	s.mu.Unlock()
	branched, err := s.mgr.store.ScanEncodedUnbranched(s.id, from, skipEmptyInterrupted(fn))
	if err != nil || !branched {
		return err
	}
	t, on, err := s.branchedTree()
	if err != nil {
		return err
	}
	seqs := t.seqs(on)
	if n >= 0 && n < len(seqs) {
		seqs = seqs[len(seqs)-n:]
	}
	if len(seqs) == 0 {
		return nil
	}
	next := 0
	return s.mgr.store.ScanEncoded(s.id, seqs[0], skipEmptyInterrupted(func(m *StoredMessage) error {
		for next < len(seqs) && seqs[next] < m.Seq {
			next++
		}
		if next == len(seqs) || seqs[next] != m.Seq {
			return nil
		}
		return fn(m)
	}))
}

// skipEmptyInterrupted wraps fn to leave out the messages a kill or a close cut off before
// they had a block: records the conversation never had (see IsEmptyInterrupted).
func skipEmptyInterrupted(fn func(*StoredMessage) error) func(*StoredMessage) error {
	return func(m *StoredMessage) error {
		if m.IsEmptyInterrupted() {
			return nil
		}
		return fn(m)
	}
}

// encodeConversation writes the main conversation of the branch that ends at the head
// (see conversation) to p. A message is written whole: the records that continue it join
// it first.
func (s *Session) encodeConversation(p *PartWriter) error {
	c := conversation{}
	write := func() error {
		c.end() // the message open is whole now
		if len(c.buf) == 0 {
			return nil
		}
		p.begin()
		p.buf = jsonenc.AppendASCII(p.buf, c.buf)
		c.buf = c.buf[:0]
		return p.ended()
	}
	err := s.scanBranch(func(m *StoredMessage) error {
		if !m.IsConversation() || (m.Continues && c.role == m.Role) {
			c.add(m)
			return nil
		}
		if err := write(); err != nil {
			return err
		}
		c.count = 0 // the comma is written by p, not by add
		c.add(m)
		return nil
	})
	if err != nil {
		return err
	}
	return write()
}
