package contextbuild

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Summaries are made by a summarizer the caller supplies (their model, called from
// JavaScript), one step at a time: a step hands over the previous summary, if any, and the
// messages after it, and its result is cached by range. A summary always covers a session
// from its first message, so each range is summarized once, whoever asks for it.

// SummaryOptions shape the steps toward a summary.
type SummaryOptions struct {
	// TargetTokens is the length asked of each summary; 0 picks one from the input.
	TargetTokens int64 `json:"targetTokens"`
	// MaxInputTokens bounds the messages of one step, so that each fits the summarizer's
	// window; longer ranges are summarized in several steps. Default 60,000.
	MaxInputTokens int64  `json:"maxInputTokens"`
	Model          string `json:"model"`
}

const (
	defaultMaxInputTokens = 60000
	defaultTargetTokens   = 2000
	minTargetTokens       = 200
)

// SummaryStep is one call of the summarizer: messages (Anthropic shaped, tool outputs
// pruned, the previous summary first) to summarize into about TargetTokens tokens, giving
// the summary of messages FromSeq..ToSeq.
type SummaryStep struct {
	FromSeq      int64           `json:"fromSeq"`
	ToSeq        int64           `json:"toSeq"`
	BaseToSeq    int64           `json:"baseToSeq"` // the summary this one extends, -1 for none
	Messages     json.RawMessage `json:"messages"`
	MessageCount int64           `json:"messageCount"`
	TargetTokens int64           `json:"targetTokens"`
}

// NextSummaryStep returns the next step toward a summary of messages 0..toSeq, or nil when
// that summary is cached.
func NextSummaryStep(s *session.Session, toSeq int64, opts SummaryOptions) (*SummaryStep, error) {
	v, err := summaryView(s, toSeq)
	if err != nil {
		return nil, err
	}
	base, err := v.latestSummaryUpTo(toSeq)
	if err != nil || (base != nil && base.ToSeq == toSeq) {
		return nil, err
	}
	from := int64(0)
	if base != nil {
		from = base.ToSeq + 1
	}
	end, err := v.stepEnd(from, toSeq, opts)
	if err != nil {
		return nil, err
	}
	return v.step(base, from, end, opts)
}

// summaryView prepares a view for summaries, checking that toSeq is a message.
func summaryView(s *session.Session, toSeq int64) (*view, error) {
	if err := prepareContext(s); err != nil {
		return nil, err
	}
	v, err := newView(s, &BuildOptions{Format: ProviderFamilyOr(s.Provider()), UnprunedTurns: DefaultRecentTurns})
	if err == nil && (toSeq < 0 || toSeq > v.idx.LastSeq || !v.pos.onBranch(toSeq)) {
		err = fmt.Errorf("%w: message %d is not on the session's current branch (its last counted message is %d)", session.ErrInvalidArgument, toSeq, v.idx.LastSeq)
	}
	return v, err
}

// ProviderFamilyOr returns the API family of a provider, Anthropic when unknown.
func ProviderFamilyOr(provider string) string {
	if f := tokens.ProviderFamily(provider); f != "" {
		return f
	}
	return tokens.ProviderAnthropic
}

// latestSummaryUpTo returns the cached summary from message 0 that ends last, not after toSeq.
func (v *view) latestSummaryUpTo(toSeq int64) (*Summary, error) {
	list, err := v.store.Summaries(v.s.ID(), -1)
	var best *Summary
	for i := range list {
		if list[i].FromSeq == 0 && list[i].ToSeq <= toSeq && v.pos.onBranch(list[i].ToSeq) {
			best = &list[i]
		}
	}
	return best, err
}

// stepEnd returns the last message of the step from `from`: toSeq when the pruned
// messages fit MaxInputTokens, else an earlier step boundary (at least one step).
func (v *view) stepEnd(from, toSeq int64, opts SummaryOptions) (int64, error) {
	maxRaw := tokens.RawUnits(orDefault(opts.MaxInputTokens, defaultMaxInputTokens), v.factor)
	before, err := v.cumBefore(from)
	if err != nil {
		return 0, err
	}
	last, err := v.pos.cumAt(toSeq)
	if err != nil || last.Pruned-before.Pruned <= maxRaw {
		return toSeq, err
	}
	p, found, err := v.pos.firstSeqReaching(before.Tokens + maxRaw)
	if err != nil || !found {
		return toSeq, err
	}
	if cut, ok, err := v.pos.cut(p, true, true); err != nil || (ok && cut > from) {
		return min(cut-1, toSeq), err
	}
	cut, ok, err := v.pos.cut(from+1, true, false)
	if err != nil || !ok {
		return toSeq, err
	}
	return min(cut-1, toSeq), nil
}

func orDefault(n, def int64) int64 {
	if n > 0 {
		return n
	}
	return def
}

// step builds the summarizer's input for messages from..end after base.
func (v *view) step(base *Summary, from, end int64, opts SummaryOptions) (*SummaryStep, error) {
	msgs, _, err := v.loadPruned(from, end, end+1)
	if err != nil {
		return nil, err
	}
	d := &draft{messages: msgs}
	d.withSummary(base)
	msgs, _ = repair(d.messages)
	target := opts.TargetTokens
	if target <= 0 {
		target = min(defaultTargetTokens, max(minTargetTokens, tokens.Calibrated(rawTokens(msgs), v.factor)/4))
	}
	st := &SummaryStep{ToSeq: end, BaseToSeq: -1, Messages: shapeAnthropic(msgs), MessageCount: end - from + 1, TargetTokens: target}
	if base != nil {
		st.BaseToSeq = base.ToSeq
	}
	return st, nil
}

// StoreSummary caches the summarizer's text for messages 0..toSeq. A summary of the same
// range stored meanwhile is kept, and returned.
func StoreSummary(s *session.Session, toSeq int64, text, model string) (*Summary, error) {
	if text == "" {
		return nil, fmt.Errorf("%w: the summarizer must resolve to a non-empty string", session.ErrInvalidArgument)
	}
	v, err := summaryView(s, toSeq)
	if err != nil {
		return nil, err
	}
	cum, err := v.pos.cumAt(toSeq)
	if err != nil {
		return nil, err
	}
	sum := Summary{FromSeq: 0, ToSeq: toSeq, MessageCount: toSeq + 1, TokensBefore: cum.Tokens,
		TokensAfter: tokens.CountText(text), Model: model, Text: text, CreatedAt: s.Now().UTC()}
	v.store.Apply(PutSummary{SessionID: s.ID(), Summary: sum})
	if err := v.store.Sync(); err != nil {
		return nil, err
	}
	return v.latestSummaryUpTo(toSeq)
}

// recentShare is the part of the budget the recent messages may take when a summary is
// made for recent-plus-summary; the rest is for the summary and for growth.
const recentShare = 0.7

// SummaryCutFor returns where a summary would let recent-plus-summary fit opts' budget:
// the first turn (else step) from which the messages to the end fit in recentShare of it.
// ok is false when no summary after the boundary would help.
func SummaryCutFor(s *session.Session, opts BuildOptions) (cut int64, ok bool, err error) {
	if err := opts.normalize(); err != nil {
		return 0, false, err
	}
	if err := prepareContext(s); err != nil {
		return 0, false, err
	}
	v, err := newView(s, &opts)
	if err != nil || v.empty() {
		return 0, false, err
	}
	keep := tokens.RawUnits(int64(recentShare*float64(opts.budget().AvailableTokens))-defaultTargetTokens, v.factor)
	p, found, err := v.pos.firstSeqReaching(v.idx.Total.Tokens - keep)
	if err != nil || !found || keep <= 0 {
		return 0, false, err
	}
	for _, steps := range []bool{false, true} {
		cut, found, err := v.pos.cut(p+1, steps, false)
		if err != nil {
			return 0, false, err
		}
		if found && cut > v.start && cut <= v.idx.LastSeq {
			return cut, true, nil
		}
	}
	return 0, false, nil
}
