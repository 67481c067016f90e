package contextbuild

// prunedTools sends every message of the view, but turns before the most recent ones
// have their tool outputs shortened by the kind of tool (a file read keeps its head and
// tail, search and shell output their first lines), long tool inputs cut and thinking
// dropped. A tool call and its result stay together: only their contents shrink.
type prunedTools struct{}

func (prunedTools) name() string      { return PrunedToolsName }
func (prunedTools) priority() float64 { return 2 }
func (prunedTools) minBudget() int64  { return 2000 }

func (prunedTools) build(v *view, budget int64) (*draft, error) {
	recent, err := v.recentStart()
	if err != nil {
		return nil, err
	}
	return buildPruned(v, v.start, recent, v.summary, budget)
}

// buildPruned drafts summary + messages from..end, pruned before recent, when the stored
// counts say it fits; else it returns a notFit error.
func buildPruned(v *view, from, recent int64, summary *Summary, budget int64) (*draft, error) {
	recent = max(recent, from)
	need, err := prunedNeed(v, from, recent, summary)
	if err != nil || !v.fits(need, budget) {
		return nil, notFitErr(need, err)
	}
	msgs, pruned, err := v.loadPruned(from, v.idx.LastSeq, recent)
	if err != nil {
		return nil, err
	}
	d := &draft{messages: msgs, included: int64(len(msgs)), pruned: pruned}
	d.withSummary(summary)
	return d, nil
}

// prunedNeed is what summary + messages from..end, pruned before recent, take by the
// stored counts, in raw units.
func prunedNeed(v *view, from, recent int64, summary *Summary) (int64, error) {
	cost, err := prunedCost(v, from, recent)
	return summaryTokens(summary) + cost, err
}
