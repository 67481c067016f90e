package contextbuild

import (
	"sort"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// branchPositions are the positions of a branched session's current branch, worked out in
// memory from the session's tree and its stored counts: the store's cumulative counts run
// over every record in seq order, branches left by a rewind included, so the branch's are
// added up here. It reads one small row per record, as reading the tree does.
type branchPositions struct {
	store     Store
	id        string
	seqs      []int64 // the counted conversation records on the branch, in order
	turns     []int64
	prompt    []bool
	assistant []bool
	cum       []Cum // through each record
	boundary  *Compaction
}

// newBranchPositions works out the positions of the records on marks among links.
func newBranchPositions(store Store, id string, links []session.Link, on []bool) (*branchPositions, error) {
	counts := map[int64]Cum{}
	err := store.Counts(id, func(seq int64, c Cum) { counts[seq] = c })
	if err != nil {
		return nil, err
	}
	p := &branchPositions{store: store, id: id}
	var total Cum
	for i, l := range links {
		c, counted := counts[l.Seq]
		if !on[i] || l.Role == "" || l.IsSidechain || !counted {
			continue
		}
		total = Cum{total.Tokens + c.Tokens, total.Pruned + c.Pruned}
		p.seqs, p.turns, p.cum = append(p.seqs, l.Seq), append(p.turns, l.Turn), append(p.cum, total)
		p.prompt, p.assistant = append(p.prompt, l.Type == session.TypeUser), append(p.assistant, l.Role == "assistant")
	}
	return p, p.findBoundary()
}

// findBoundary picks the latest compaction whose summary covers the start of this branch.
func (p *branchPositions) findBoundary() error {
	list, err := p.store.Compactions(p.id)
	for i := len(list) - 1; i >= 0; i-- {
		if p.onBranch(list[i].Seq - 1) {
			p.boundary = &list[i]
			break
		}
	}
	return err
}

func (p *branchPositions) index() ContextIndex {
	n := len(p.seqs)
	if n == 0 {
		return ContextIndex{LastSeq: -1, Boundary: p.boundary}
	}
	return ContextIndex{LastSeq: p.seqs[n-1], LastTurn: p.turns[n-1], Total: p.cum[n-1], Boundary: p.boundary}
}

// at returns the position of the last record at or before seq, -1 when none is.
func (p *branchPositions) at(seq int64) int {
	return sort.Search(len(p.seqs), func(i int) bool { return p.seqs[i] > seq }) - 1
}

func (p *branchPositions) cumAt(seq int64) (Cum, error) {
	if i := p.at(seq); i >= 0 {
		return p.cum[i], nil
	}
	return Cum{}, nil
}

func (p *branchPositions) firstSeqReaching(tokens int64) (int64, bool, error) {
	i := sort.Search(len(p.cum), func(i int) bool { return p.cum[i].Tokens >= tokens })
	if i == len(p.cum) {
		return 0, false, nil
	}
	return p.seqs[i], true, nil
}

func (p *branchPositions) turnStart(turn int64) (int64, bool, error) {
	i := sort.Search(len(p.turns), func(i int) bool { return p.turns[i] >= turn })
	if i == len(p.turns) || p.turns[i] != turn {
		return 0, false, nil
	}
	return p.seqs[i], true, nil
}

func (p *branchPositions) cut(seq int64, steps, before bool) (int64, bool, error) {
	ok := func(i int) bool { return p.prompt[i] || (steps && p.assistant[i]) }
	if before {
		for i := p.at(seq); i >= 0; i-- {
			if ok(i) {
				return p.seqs[i], true, nil
			}
		}
		return 0, false, nil
	}
	for i := p.at(seq-1) + 1; i < len(p.seqs); i++ {
		if ok(i) {
			return p.seqs[i], true, nil
		}
	}
	return 0, false, nil
}

func (p *branchPositions) scan(from, to int64, fn func(*tokens.ContextMessage) error) error {
	return p.store.ScanContext(p.id, from, to, func(m *tokens.ContextMessage) error {
		if !p.onBranch(m.Seq) {
			return nil
		}
		return fn(m)
	})
}

func (p *branchPositions) onBranch(seq int64) bool {
	i := p.at(seq)
	return i >= 0 && p.seqs[i] == seq
}
