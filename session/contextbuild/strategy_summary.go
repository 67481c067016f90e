package contextbuild

import (
	"errors"
	"sort"
)

// recentPlusSummary sends a cached summary of the older messages and the recent ones
// after it, older turns among those pruned. It uses summaries that end after the view's
// boundary (made by compaction steps, or by buildContextAsync with a summarizer): the one
// that keeps the most messages and still fits with everything after it; when none does,
// the latest one followed by as many of the most recent whole turns as fit, the messages
// between them left out (a newer summary would cover them).
type recentPlusSummary struct{}

func (recentPlusSummary) name() string      { return RecentPlusSummaryName }
func (recentPlusSummary) priority() float64 { return 3 }
func (recentPlusSummary) minBudget() int64  { return 1500 }

// omitReasonStaleSummary says why recent-plus-summary leaves messages out.
const omitReasonStaleSummary = "the messages between the latest cached summary and the recent turns did not fit the budget; a newer summary would cover them"

func (recentPlusSummary) build(v *view, budget int64) (*draft, error) {
	summaries, err := v.candidateSummaries()
	if err != nil {
		return nil, err
	}
	if len(summaries) == 0 {
		return nil, &skip{outcome: OutcomeNoSummary}
	}
	recent, err := v.recentStart()
	if err != nil {
		return nil, err
	}
	// A later summary leaves fewer messages after it, so the first that fits is found by
	// bisection: a few count lookups, however many summaries a long session has.
	i := sort.Search(len(summaries), func(i int) bool {
		need, e := prunedNeed(v, summaries[i].ToSeq+1, recent, &summaries[i])
		err = errors.Join(err, e)
		return v.fits(need, budget) || e != nil
	})
	if err != nil {
		return nil, err
	}
	if i < len(summaries) {
		return buildPruned(v, summaries[i].ToSeq+1, recent, &summaries[i], budget)
	}
	latest := &summaries[len(summaries)-1]
	d, err := v.recentTurnsFrom(summaryMessage(latest), latest.ToSeq+1, budget)
	if err != nil {
		return nil, err
	}
	d.summary, d.summarized = latest, latest.ToSeq-latest.FromSeq+1
	d.omitted.Reason = omitReasonStaleSummary
	return d, nil
}

// candidateSummaries returns the cached summaries from message 0 that end inside the view,
// before its last message, by end.
func (v *view) candidateSummaries() ([]Summary, error) {
	list, err := v.store.Summaries(v.s.ID(), v.start)
	out := list[:0]
	for _, s := range list {
		if s.FromSeq == 0 && s.ToSeq < v.idx.LastSeq && v.pos.onBranch(s.ToSeq) {
			out = append(out, s)
		}
	}
	return out, err
}
