package contextbuild

import (
	"fmt"
	"math"
	"strings"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/blocks"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// fallback always fits: one user message with the last prompt's text and as much of the
// session state as the budget leaves, both cut to fit. Only a budget too small for any
// message at all fails, with ErrBudgetTooSmall.
type fallback struct{}

// minFallbackTokens is the smallest budget, in raw units, that holds a message with text.
const minFallbackTokens = tokens.MessageOverhead + tokens.BlockOverhead + 1

func (fallback) name() string      { return FallbackName }
func (fallback) priority() float64 { return math.Inf(1) }
func (fallback) minBudget() int64  { return 0 }

func (fallback) build(v *view, budget int64) (*draft, error) {
	raw := tokens.RawUnits(budget, v.factor) - tokens.MessageOverhead - tokens.BlockOverhead
	if raw < 1 {
		return nil, fmt.Errorf("%w: %d tokens are left for the conversation; give a larger contextWindow, a shorter system prompt or fewer tools, or a smaller reserve", session.ErrBudgetTooSmall, budget)
	}
	st, err := v.workState()
	if err != nil {
		return nil, err
	}
	prompt, err := v.lastPromptText()
	if err != nil {
		return nil, err
	}
	text := fitText(st.text(), prompt, raw)
	d := &draft{messages: []*ctxMessage{userText(text)}, summarized: v.idx.LastSeq + 1}
	first, err := v.firstTurnFrom(v.start)
	if err != nil {
		return nil, err
	}
	d.omitted, err = v.omission(v.start, v.idx.LastSeq, v.idx.LastTurn+1-first)
	d.omitted.Reason = "only the session state and the last prompt's text fit, both cut to the budget"
	return d, err
}

// lastPromptText returns the text of the last turn's prompt, "" when it has none.
func (v *view) lastPromptText() (string, error) {
	m, seq, err := v.opening("")
	if err != nil || seq < 0 {
		return "", err
	}
	var parts []string
	for _, raw := range m.blocks {
		if b, ok := tokens.DecodeBlock(raw); ok && b.Type == blocks.BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}

// fitText joins the state and the prompt within raw tokens: the prompt comes first in
// importance, then as much of the state as is left.
func fitText(state, prompt string, raw int64) string {
	const joint = "\n\nTHE USER'S LAST MESSAGE:\n"
	if prompt == "" {
		return truncateToTokens(state, raw)
	}
	prompt = truncateToTokens(prompt, raw)
	left := raw - tokens.CountText(prompt) - tokens.CountText(joint)
	if left <= 0 {
		return prompt
	}
	return truncateToTokens(state, left) + joint + prompt
}

// truncateToTokens returns the longest prefix of s (cut at a character) within n tokens.
func truncateToTokens(s string, n int64) string {
	if tokens.CountText(s) <= n {
		return s
	}
	lo, hi := 0, min(len(s), int(n)*16)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if tokens.CountText(tokens.CutRunes(s, mid)) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return tokens.CutRunes(s, lo)
}
