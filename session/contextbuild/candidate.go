package contextbuild

import (
	"fmt"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Candidate is the context a strategy registered from JavaScript proposes: messages as
// Anthropic's API takes them ({role, content: a string or blocks}; other fields, such as a
// stored message's envelope, are ignored). The builder measures, repairs and validates it
// as it does a built-in strategy's draft, so it is chosen only when it fits and is valid.
type Candidate struct {
	Strategy        string          `json:"strategy"`
	MinTokens       int64           `json:"minTokens"`
	Messages        json.RawMessage `json:"messages"`
	IncludedCount   *int64          `json:"includedCount"` // default: the number of messages
	SummarizedCount int64           `json:"summarizedCount"`
}

// candidateStrategy is a Candidate as one more strategy to try.
type candidateStrategy struct {
	c    *Candidate
	msgs []*ctxMessage
}

func (cs candidateStrategy) name() string      { return cs.c.Strategy }
func (cs candidateStrategy) priority() float64 { return 0 }
func (cs candidateStrategy) minBudget() int64  { return cs.c.MinTokens }

func (cs candidateStrategy) build(v *view, _ int64) (*draft, error) {
	included := int64(len(cs.msgs))
	if cs.c.IncludedCount != nil {
		included = *cs.c.IncludedCount
	}
	total := v.idx.LastSeq + 1
	included = min(max(included, 0), total)
	return &draft{messages: cs.msgs, included: included, summarized: min(max(cs.c.SummarizedCount, 0), total-included)}, nil
}

// newCandidateStrategy checks a candidate and counts its messages.
func newCandidateStrategy(c *Candidate) (candidateStrategy, error) {
	if c.Strategy == "" {
		return candidateStrategy{}, fmt.Errorf("%w: a candidate context needs the name of its strategy", session.ErrInvalidArgument)
	}
	msgs, err := candidateMessages(c.Messages)
	if err != nil {
		return candidateStrategy{}, fmt.Errorf("strategy %q returned messages that are not well formed: %w", c.Strategy, err)
	}
	return candidateStrategy{c: c, msgs: msgs}, nil
}

// candidateMessages parses API messages into messages of a context, counted.
func candidateMessages(raw json.RawMessage) ([]*ctxMessage, error) {
	parsed, err := session.ParseMessages(raw)
	if err != nil {
		return nil, err
	}
	names := tokens.ToolNames{}
	out := make([]*ctxMessage, len(parsed))
	for i, p := range parsed {
		m := &ctxMessage{seq: -1, turn: -1, role: p.Role, typ: p.Type, blocks: p.Blocks}
		m.tokens = tokens.CountMessage(p.Role, "", p.Blocks, nil, names).Tokens
		out[i] = m
	}
	return out, nil
}

// CountContextTokens returns what API messages take in a context for provider, as the
// builder measures a candidate before repairs: a registered strategy's yardstick.
func CountContextTokens(messages json.RawMessage, provider string) (int64, error) {
	if provider == "" {
		provider = tokens.ProviderAnthropic
	}
	if provider != tokens.ProviderAnthropic && provider != tokens.ProviderOpenAI {
		return 0, fmt.Errorf("%w: format must be %q or %q, not %q", session.ErrInvalidArgument, tokens.ProviderAnthropic, tokens.ProviderOpenAI, provider)
	}
	msgs, err := candidateMessages(messages)
	if err != nil {
		return 0, err
	}
	return tokens.Calibrated(rawTokens(msgs), tokens.Calibration(provider)), nil
}
