package contextbuild

// fullHistory sends every message of the view verbatim, after the boundary's summary
// when the session was compacted.
type fullHistory struct{}

func (fullHistory) name() string      { return FullHistoryName }
func (fullHistory) priority() float64 { return 1 }
func (fullHistory) minBudget() int64  { return 0 }

func (fullHistory) build(v *view, budget int64) (*draft, error) {
	cum, err := v.tokensFrom(v.start)
	if need := summaryTokens(v.summary) + cum.Tokens; err != nil || !v.fits(need, budget) {
		return nil, notFitErr(need, err)
	}
	msgs, err := v.load(v.start)
	if err != nil {
		return nil, err
	}
	d := &draft{messages: msgs, included: int64(len(msgs))}
	d.withSummary(v.summary)
	return d, nil
}

// withSummary puts a summary before the draft's messages.
func (d *draft) withSummary(s *Summary) {
	if s == nil {
		return
	}
	d.messages = append([]*ctxMessage{summaryMessage(s)}, d.messages...)
	d.summarized = s.ToSeq - s.FromSeq + 1
	d.summary = s
}
