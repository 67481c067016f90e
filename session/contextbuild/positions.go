package contextbuild

import (
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// positions is what the builder knows of where messages are on the branch it builds from:
// cumulative counts, turn starts, the places a context may start, and a scan of the
// branch's records. A session that never branched is one line of records, and the store's
// indexes answer all of it (linearPositions); after a rewind or a fork the branch that ends
// at the head is worked out in memory (branchPositions).
type positions interface {
	// index returns the last counted message of the branch, its turn and the totals.
	index() ContextIndex
	// cumAt returns the cumulative counts of the branch through seq; zero before it.
	cumAt(seq int64) (Cum, error)
	// firstSeqReaching returns the first message of the branch whose cumulative count
	// reaches tokens.
	firstSeqReaching(tokens int64) (int64, bool, error)
	// turnStart returns the first message of a turn.
	turnStart(turn int64) (int64, bool, error)
	// cut returns the first place ≥ seq (the last ≤ seq, with before) where a context may
	// start: a prompt, or with steps an assistant message too.
	cut(seq int64, steps, before bool) (int64, bool, error)
	// scan calls fn for the branch's records with from ≤ seq ≤ to, in order.
	scan(from, to int64, fn func(*tokens.ContextMessage) error) error
	// onBranch reports whether record seq is on the branch.
	onBranch(seq int64) bool
}

// linearPositions answers from the store's indexes: every record is on the branch.
type linearPositions struct {
	store Store
	id    string
	idx   ContextIndex
}

func (p *linearPositions) index() ContextIndex { return p.idx }

func (p *linearPositions) cumAt(seq int64) (Cum, error) { return p.store.CumAt(p.id, seq) }

func (p *linearPositions) firstSeqReaching(tokens int64) (int64, bool, error) {
	return p.store.FirstSeqReaching(p.id, tokens)
}

func (p *linearPositions) turnStart(turn int64) (int64, bool, error) {
	return p.store.TurnStart(p.id, turn)
}

func (p *linearPositions) cut(seq int64, steps, before bool) (int64, bool, error) {
	if before {
		return p.store.CutAtOrBefore(p.id, seq, steps)
	}
	return p.store.CutAtOrAfter(p.id, seq, steps)
}

func (p *linearPositions) scan(from, to int64, fn func(*tokens.ContextMessage) error) error {
	return p.store.ScanContext(p.id, from, to, fn)
}

func (p *linearPositions) onBranch(int64) bool { return true }

// newPositions returns the positions of the branch a session's head is on.
func newPositions(s *session.Session) (positions, error) {
	store, err := storeOf(s)
	if err != nil {
		return nil, err
	}
	links, on, branched, err := s.CurrentBranch()
	if err != nil {
		return nil, err
	}
	if branched {
		return newBranchPositions(store, s.ID(), links, on)
	}
	idx, err := store.ContextIndex(s.ID())
	return &linearPositions{store: store, id: s.ID(), idx: idx}, err
}
