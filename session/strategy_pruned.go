package session

// prunedTools sends every message of the view, but turns before the most recent ones
// have their tool outputs shortened by the kind of tool (a file read keeps its head and
// tail, search and shell output their first lines), long tool inputs cut and thinking
// dropped. A tool call and its result stay together: only their contents shrink.
type prunedTools struct{}

func (prunedTools) name() string     { return PrunedToolsName }
func (prunedTools) priority() int    { return 2 }
func (prunedTools) minBudget() int64 { return 2000 }

func (prunedTools) build(v *view, budget int64) (*draft, error) {
	recent, err := v.recentStart()
	if err != nil {
		return nil, err
	}
	return buildPruned(v, v.start, recent, v.summary, budget)
}

// buildPruned drafts summary + messages from..end, pruned before recent, when the stored
// counts say it fits.
func buildPruned(v *view, from, recent int64, summary *Summary, budget int64) (*draft, error) {
	recent = max(recent, from)
	if ok, err := prunedFits(v, from, recent, summary, budget); !ok || err != nil {
		return nil, err
	}
	msgs, pruned, err := v.loadPruned(from, v.idx.LastSeq, recent)
	if err != nil {
		return nil, err
	}
	d := &draft{messages: msgs, included: int64(len(msgs)), pruned: pruned}
	d.withSummary(summary)
	return d, nil
}

// prunedFits tells from the stored counts whether summary + messages from..end, pruned
// before recent, fit the budget.
func prunedFits(v *view, from, recent int64, summary *Summary, budget int64) (bool, error) {
	recent = max(recent, from)
	old, err := v.tokensFrom(from)
	if err != nil {
		return false, err
	}
	kept, err := v.tokensFrom(recent)
	if err != nil {
		return false, err
	}
	return v.fits(summaryTokens(summary)+(old.Pruned-kept.Pruned)+kept.Tokens, budget), nil
}
