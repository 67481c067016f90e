package session

import (
	"errors"
	"sort"
)

// recentPlusSummary sends a cached summary of the older messages and the recent ones
// after it, older turns among those pruned. It uses summaries that end after the view's
// boundary (made by compaction steps, or by buildContextAsync with a summarizer), the one
// that keeps the most messages and still fits.
type recentPlusSummary struct{}

func (recentPlusSummary) name() string     { return RecentPlusSummaryName }
func (recentPlusSummary) priority() int    { return 3 }
func (recentPlusSummary) minBudget() int64 { return 1500 }

func (recentPlusSummary) build(v *view, budget int64) (*draft, error) {
	summaries, err := v.candidateSummaries()
	if err != nil || len(summaries) == 0 {
		return nil, err
	}
	recent, err := v.recentStart()
	if err != nil {
		return nil, err
	}
	// A later summary leaves fewer messages after it, so the first that fits is found by
	// bisection: a few count lookups, however many summaries a long session has.
	i := sort.Search(len(summaries), func(i int) bool {
		ok, e := prunedFits(v, summaries[i].ToSeq+1, recent, &summaries[i], budget)
		err = errors.Join(err, e)
		return ok || e != nil
	})
	if err != nil || i == len(summaries) {
		return nil, err
	}
	return buildPruned(v, summaries[i].ToSeq+1, recent, &summaries[i], budget)
}

// candidateSummaries returns the cached summaries from message 0 that end inside the view,
// before its last message, by end.
func (v *view) candidateSummaries() ([]Summary, error) {
	list, err := v.store.Summaries(v.s.id, v.start)
	out := list[:0]
	for _, s := range list {
		if s.FromSeq == 0 && s.ToSeq < v.idx.LastSeq && v.pos.onBranch(s.ToSeq) {
			out = append(out, s)
		}
	}
	return out, err
}
