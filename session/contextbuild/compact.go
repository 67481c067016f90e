package contextbuild

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Compaction (seed 000 and seed 004): the turns before the most recent ones are
// represented by a summary, and a boundary row says so. No message is deleted or
// rewritten; later builds start from the boundary. The cut is always at a turn boundary,
// so a turn, and a tool call with its result, is never split.

// CompactOptions shape a compaction.
type CompactOptions struct {
	SummaryOptions
	// KeepRecentTurns is how many of the last turns stay verbatim (default 3).
	KeepRecentTurns int `json:"keepRecentTurns"`
}

// Compaction triggers.
const (
	TriggerManual    = "manual"
	TriggerThreshold = "threshold" // the tracked context passed the compaction threshold
)

// CompactPlan says what a compaction would do.
type CompactPlan struct {
	Compactable            bool        `json:"compactable"`
	Reason                 string      `json:"reason,omitempty"`
	CutSeq                 int64       `json:"cutSeq"` // the first message kept verbatim
	SummarizedMessageCount int64       `json:"summarizedMessageCount"`
	KeptMessageCount       int64       `json:"keptMessageCount"`
	KeptTurns              int64       `json:"keptTurns"`
	TokensBefore           int64       `json:"tokensBefore"` // the history a build starts from now
	TokensKept             int64       `json:"tokensKept"`   // the messages kept verbatim
	SummaryCached          bool        `json:"summaryCached"`
	Boundary               *Compaction `json:"boundary,omitempty"` // the boundary now, if any
}

// PlanCompaction says where a compaction would cut and what it would keep.
func PlanCompaction(s *session.Session, opts CompactOptions) (*CompactPlan, error) {
	if opts.KeepRecentTurns < 0 {
		return nil, fmt.Errorf("%w: keepRecentTurns must not be negative", session.ErrInvalidArgument)
	}
	keep := int64(opts.KeepRecentTurns)
	if keep == 0 {
		keep = DefaultRecentTurns
	}
	if err := prepareContext(s); err != nil {
		return nil, err
	}
	v, err := newView(s, &BuildOptions{Format: ProviderFamilyOr(s.Provider()), UnprunedTurns: int(keep)})
	if err != nil {
		return nil, err
	}
	plan := &CompactPlan{Boundary: v.idx.Boundary, KeptTurns: keep}
	full, err := v.tokensFrom(v.start)
	if err != nil {
		return nil, err
	}
	plan.TokensBefore = tokens.Calibrated(summaryTokens(v.summary)+full.Tokens, v.factor)
	return plan, v.planCut(plan, keep)
}

// planCut finds the cut: the start of the first kept turn, after the boundary.
func (v *view) planCut(plan *CompactPlan, keep int64) error {
	first := v.idx.LastTurn - keep + 1
	if v.empty() || first <= 0 {
		plan.Reason = fmt.Sprintf("the session has %d turn(s) and the last %d are kept", v.idx.LastTurn+1, keep)
		return nil
	}
	cut, found, err := v.pos.turnStart(first)
	if err != nil || !found {
		return err
	}
	if cut <= v.start {
		plan.Reason = fmt.Sprintf("no turn before the last %d since the previous compaction", keep)
		return nil
	}
	kept, err := v.tokensFrom(cut)
	if err != nil {
		return err
	}
	cached, err := v.latestSummaryUpTo(cut - 1)
	plan.Compactable, plan.CutSeq = true, cut
	plan.SummarizedMessageCount, plan.KeptMessageCount = cut, v.idx.LastSeq+1-cut
	plan.TokensKept = tokens.Calibrated(kept.Tokens, v.factor)
	plan.SummaryCached = cached != nil && cached.ToSeq == cut-1
	return err
}

// CommitCompaction writes the boundary before message cut, whose summary (of messages
// 0..cut-1) must be cached. A boundary already at cut is returned as it is.
func CommitCompaction(s *session.Session, cut int64, trigger string) (*Compaction, error) {
	v, err := summaryView(s, cut-1)
	if err != nil {
		return nil, err
	}
	sum, err := v.latestSummaryUpTo(cut - 1)
	if err != nil {
		return nil, err
	}
	if sum == nil || sum.ToSeq != cut-1 {
		return nil, fmt.Errorf("%w: no summary of messages 0-%d is cached; summarize them first", session.ErrInvalidArgument, cut-1)
	}
	if cut == v.start { // a compaction at the same time wrote this boundary
		return v.idx.Boundary, nil
	}
	if cut < v.start {
		return nil, fmt.Errorf("%w: the session is already compacted up to message %d", session.ErrInvalidArgument, v.start)
	}
	full, err := v.tokensFrom(v.start)
	if err != nil {
		return nil, err
	}
	kept, err := v.tokensFrom(cut)
	if err != nil {
		return nil, err
	}
	c := Compaction{Seq: cut, Trigger: trigger, CreatedAt: s.Now().UTC(),
		TokensBefore: tokens.Calibrated(summaryTokens(v.summary)+full.Tokens, v.factor),
		TokensAfter:  tokens.Calibrated(summaryTokens(sum)+kept.Tokens, v.factor)}
	v.store.Apply(PutCompaction{SessionID: s.ID(), Compaction: c})
	return &c, v.store.Sync()
}
