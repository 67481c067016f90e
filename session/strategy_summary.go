package session

// recentPlusSummary sends a cached summary of the older messages and the recent ones
// after it, older turns among those pruned. It uses summaries that end after the view's
// boundary (made by compaction steps or by buildContextAsync with a summarizer), the one
// that keeps the most messages and still fits.
type recentPlusSummary struct{}

func (recentPlusSummary) name() string     { return RecentPlusSummaryName }
func (recentPlusSummary) priority() int    { return 3 }
func (recentPlusSummary) minBudget() int64 { return 1500 }

func (recentPlusSummary) build(v *view, budget int64) (*draft, error) {
	summaries, err := v.store.Summaries(v.s.id, v.start)
	if err != nil {
		return nil, err
	}
	recent, err := v.recentStart()
	if err != nil {
		return nil, err
	}
	for i := range summaries {
		s := &summaries[i]
		if s.FromSeq != 0 || s.ToSeq >= v.idx.LastSeq {
			continue
		}
		d, err := buildPruned(v, s.ToSeq+1, recent, s, budget)
		if d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}
