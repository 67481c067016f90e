package session

// TreeShape is a session's tree as a history view lays it out: every record in the order
// written, the index of each one's parent in the tree (-1 for none, see tree for how a
// parent is found), the index of the head (-1 when the session has no messages) and which
// records are on the branch that ends at the head.
type TreeShape struct {
	Links    []Link
	Parent   []int
	Head     int
	OnBranch []bool
	tree     *tree
}

// TreeShape reads the session's tree from the store, with the head it has now. It reads
// what the store holds: Sync first to see what was just recorded.
func (s *Session) TreeShape() (TreeShape, error) {
	head, err := s.Head()
	if err != nil {
		return TreeShape{}, err
	}
	t, err := s.loadTree()
	if err != nil {
		return TreeShape{}, err
	}
	return t.shape(t.find(head)), nil
}

// shape lays t out with the head at index head.
func (t *tree) shape(head int) TreeShape {
	return TreeShape{Links: t.links, Parent: t.parent, Head: head, OnBranch: t.branch(head), tree: t}
}

// IndexOfSeq returns the index of the record with seq; -1 when there is none.
func (t TreeShape) IndexOfSeq(seq int64) int { return t.tree.indexOfSeq(seq, len(t.Links)) }

// Find returns the index of the record uuid; -1 when there is none.
func (t TreeShape) Find(uuid string) int { return t.tree.find(uuid) }

// Branch returns which records are on the branch that ends at the main-chain record at
// index head (none when head is -1); see tree.branch for which those are.
func (t TreeShape) Branch(head int) []bool { return t.tree.branch(head) }

// Seqs returns the seqs of the records on, in order.
func (t TreeShape) Seqs(on []bool) []int64 { return t.tree.seqs(on) }
