package contextbuild

import (
	"errors"
	"fmt"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// ContextResult is a context built for one model call, and what it stands for.
type ContextResult struct {
	Messages               json.RawMessage `json:"messages"`
	Strategy               string          `json:"strategy"`
	TokensUsed             int64           `json:"tokensUsed"`
	TokenBudget            int64           `json:"tokenBudget"`
	OriginalMessageCount   int64           `json:"originalMessageCount"`
	IncludedMessageCount   int64           `json:"includedMessageCount"`
	SummarizedMessageCount int64           `json:"summarizedMessageCount"`
	Format                 string          `json:"format"`
	Budget                 Budget          `json:"budget"`
	// CompactionDue: the full history is past the compaction threshold of the window.
	CompactionDue bool           `json:"compactionDue"`
	Debug         *ContextReport `json:"debug"`
}

// Build builds the messages of the next model call within opts' budget (seed 004):
// strategies are tried in order until one fits, the result is repaired and checked to be
// valid for the provider, and nothing stored changes. It reads the session's counts
// through indexes and only the messages it sends, so its cost follows the budget, not the
// length of the session.
func Build(s *session.Session, opts BuildOptions) (*ContextResult, error) {
	began := time.Now()
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	if err := prepareContext(s); err != nil {
		return nil, err
	}
	v, err := newView(s, &opts)
	if err != nil {
		return nil, err
	}
	if v.empty() && v.summary == nil {
		return nil, fmt.Errorf("%w: session %s has no messages to build a context from; append the user's message first", session.ErrInvalidArgument, s.ID())
	}
	budget := opts.budget()
	full, err := v.tokensFrom(v.start)
	if err != nil {
		return nil, err
	}
	budget.withConversation(tokens.Calibrated(summaryTokens(v.summary)+full.Tokens, v.factor))
	res, err := runStrategies(s, v, &opts, budget)
	if err != nil {
		return nil, err
	}
	res.CompactionDue = opts.compactionDue(budget)
	res.Debug.finish(res, v, began)
	if res.Strategy != "" { // a restricted build that chose nothing is part of a build still going on
		keepReport(s, res.Debug)
	}
	return res, nil
}

// prepareContext makes everything recorded so far readable and counted.
func prepareContext(s *session.Session) error {
	store, err := storeOf(s)
	if err != nil {
		return err
	}
	if err := s.Settle(); err != nil {
		return err
	}
	return tokens.CountMissing(store, s.ID())
}

// runStrategies tries the strategies in order and returns the first context that fits
// and is valid. A restricted selection returns a result with no strategy when none does.
func runStrategies(s *session.Session, v *view, opts *BuildOptions, budget Budget) (*ContextResult, error) {
	report := &ContextReport{Format: opts.Format, Budget: budget, Attempts: append([]Attempt{}, opts.Attempts...)}
	list, err := opts.selected()
	if err != nil {
		return nil, err
	}
	for _, st := range list {
		res, attempt, err := tryStrategy(st, v, opts.Format, budget.AvailableTokens)
		if err != nil {
			return nil, err
		}
		report.Attempts = append(report.Attempts, attempt)
		if res != nil {
			res.Budget, res.Debug = budget, report
			return res, nil
		}
	}
	if opts.restricted() {
		return &ContextResult{TokenBudget: budget.AvailableTokens, OriginalMessageCount: v.idx.LastSeq + 1,
			Format: opts.Format, Budget: budget, Debug: report}, nil
	}
	return nil, fmt.Errorf("%w: no strategy produced a valid context (%+v)", session.ErrInvalidContext, report.Attempts)
}

// selected returns the strategies a build tries: the candidate, or the built-ins from the
// named first one, within the selection's band.
func (o *BuildOptions) selected() ([]strategy, error) {
	if o.Candidate != nil {
		cs, err := newCandidateStrategy(o.Candidate)
		return []strategy{cs}, err
	}
	first := 0
	if o.Strategy != "" {
		first = indexOfStrategy(o.Strategy)
	}
	var list []strategy
	for _, st := range strategies[first:] {
		if o.admits(st) {
			list = append(list, st)
		}
	}
	return list, nil
}

// rawTokens is what messages cost, in raw units.
func rawTokens(msgs []*ctxMessage) int64 {
	var n int64
	for _, m := range msgs {
		n += m.tokens
	}
	return n
}

func indexOfStrategy(name string) int {
	for i, st := range strategies {
		if st.name() == name {
			return i
		}
	}
	return 0
}

// tryStrategy builds with one strategy; the result is nil when it does not fit or is not
// valid, and the attempt says why.
func tryStrategy(st strategy, v *view, provider string, budget int64) (*ContextResult, Attempt, error) {
	attempt := Attempt{Strategy: st.name()}
	if st.minBudget() > budget {
		attempt.Outcome = OutcomeBelowMinimum
		return nil, attempt, nil
	}
	d, err := st.build(v, budget)
	var sk *skip
	if errors.As(err, &sk) {
		attempt.Outcome, attempt.TokensNeeded = sk.outcome, tokens.Calibrated(sk.need, v.factor)
		return nil, attempt, nil
	}
	if err != nil || d == nil {
		attempt.Outcome = OutcomeDoesNotFit
		return nil, attempt, err
	}
	msgs, repairs := repair(d.messages)
	attempt.TokensUsed = tokens.Calibrated(rawTokens(msgs), v.factor)
	if attempt.TokensUsed > budget {
		attempt.Outcome = OutcomeOverAfterRepair
		return nil, attempt, nil
	}
	out := shape(msgs, provider)
	if val, _ := ValidateContext(out, provider); !val.Valid {
		attempt.Outcome, attempt.Problems = OutcomeInvalid, val.Problems
		return nil, attempt, nil
	}
	attempt.Outcome = OutcomeChosen
	res := &ContextResult{Messages: out, Strategy: st.name(), TokensUsed: attempt.TokensUsed, TokenBudget: budget,
		OriginalMessageCount: v.idx.LastSeq + 1, IncludedMessageCount: d.included, SummarizedMessageCount: d.summarized,
		Format: provider}
	v.note(d, msgs, repairs)
	return res, attempt, nil
}
