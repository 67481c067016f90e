package contextbuild

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// view is one session as a build sees it: the messages from the latest compaction
// boundary on (or all of them), the boundary's summary, and indexed access to counts, so
// that a strategy can tell whether it fits before it reads a message.
type view struct {
	s       *session.Session
	store   Store
	pos     positions // where the branch's messages are
	idx     ContextIndex
	start   int64    // the first message of the view
	summary *Summary // the boundary's summary, standing for the messages before start
	factor  float64  // calibration of the target provider
	recent  int64    // turns kept verbatim
	chosen  *chosenDraft
}

// summaryPrefix introduces a summary in a context.
const summaryPrefix = "Summary of the earlier conversation (its messages are stored in full but not sent):\n\n"

// newView reads the index of a session and the summary of its latest boundary.
func newView(s *session.Session, opts *BuildOptions) (*view, error) {
	pos, err := newPositions(s)
	if err != nil {
		return nil, err
	}
	store, err := storeOf(s)
	if err != nil {
		return nil, err
	}
	idx := pos.index()
	v := &view{s: s, store: store, pos: pos, idx: idx, factor: tokens.Calibration(opts.Format), recent: int64(opts.UnprunedTurns)}
	if idx.Boundary == nil {
		return v, nil
	}
	v.start = idx.Boundary.Seq
	summaries, err := v.store.Summaries(s.ID(), v.start-1)
	if err != nil {
		return nil, err
	}
	if len(summaries) == 0 || summaries[0].ToSeq != v.start-1 {
		return nil, fmt.Errorf("%w: the compaction boundary at message %d has no summary", session.ErrCorrupt, v.start)
	}
	v.summary = &summaries[0]
	return v, nil
}

// empty reports whether the view holds no message.
func (v *view) empty() bool { return v.idx.LastSeq < v.start }

// cumBefore returns the cumulative counts before message seq.
func (v *view) cumBefore(seq int64) (Cum, error) { return v.pos.cumAt(seq - 1) }

// tokensFrom returns the raw counts of the messages from seq to the end.
func (v *view) tokensFrom(seq int64) (Cum, error) {
	before, err := v.cumBefore(seq)
	return Cum{v.idx.Total.Tokens - before.Tokens, v.idx.Total.Pruned - before.Pruned}, err
}

// summaryTokens is what a summary message costs, in raw units.
func summaryTokens(s *Summary) int64 {
	if s == nil {
		return 0
	}
	return s.TokensAfter + tokens.MessageOverhead + tokens.BlockOverhead + tokens.CountText(summaryPrefix)
}

// summaryMessage is a summary as the first message of a context.
func summaryMessage(s *Summary) *ctxMessage {
	m := userText(summaryPrefix + s.Text)
	m.tokens = summaryTokens(s)
	return m
}

// recentStart returns the first message of the last v.recent turns, not before the view.
func (v *view) recentStart() (int64, error) {
	turn := v.idx.LastTurn - v.recent + 1
	if turn <= 0 {
		return v.start, nil
	}
	seq, found, err := v.pos.turnStart(turn)
	if err != nil || !found {
		return v.start, err
	}
	return max(seq, v.start), nil
}

// load reads the messages of the main conversation from seq to the end of the view.
func (v *view) load(from int64) ([]*ctxMessage, error) {
	var out []*ctxMessage
	err := v.pos.scan(from, v.idx.LastSeq, func(m *tokens.ContextMessage) error {
		if m.IsConversation() {
			out = append(out, fromStored(m))
		}
		return nil
	})
	return out, err
}

// loadPruned reads the messages of the main conversation from..to, pruning those before
// recent.
func (v *view) loadPruned(from, to, recent int64) ([]*ctxMessage, int64, error) {
	var out []*ctxMessage
	var pruned int64
	names := tokens.ToolNames{}
	err := v.pos.scan(from, to, func(m *tokens.ContextMessage) error {
		if !m.IsConversation() {
			return nil
		}
		msg := fromStored(m)
		if m.Seq < recent {
			if p := pruneMessage(msg, m.Count, names); p != msg {
				msg = p
				pruned++
			}
		}
		out = append(out, msg)
		return nil
	})
	return out, pruned, err
}

// fits reports whether raw units, calibrated, fit the budget.
func (v *view) fits(raw, budget int64) bool { return tokens.Calibrated(raw, v.factor) <= budget }
