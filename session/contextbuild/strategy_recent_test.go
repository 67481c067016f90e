package contextbuild_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// A long session with no summary, over its budget even pruned, sends the state and as
// many of its latest whole turns as fit: more than half the budget, every tool call with
// its result, the last message the session's last, and the report counts what was left out.
func TestRecentTurnsFillsTheBudgetWithTheLatestWholeTurns(t *testing.T) {
	e := sessiontest.NewEnv(t)
	msgs := sessiontest.Conversation(1000, false)
	s := sessiontest.WithMessages(t, e, msgs)
	for _, provider := range []string{tokens.ProviderAnthropic, tokens.ProviderOpenAI} {
		res := build(t, s, contextbuild.BuildOptions{ContextWindow: 32_000, Format: provider})
		if res.Strategy != contextbuild.RecentTurnsName {
			t.Fatalf("%s: strategy %s, want %s (attempts %+v)", provider, res.Strategy, contextbuild.RecentTurnsName, res.Debug.Attempts)
		}
		if 2*res.TokensUsed < res.TokenBudget {
			t.Errorf("%s: %d tokens of a budget of %d, under half", provider, res.TokensUsed, res.TokenBudget)
		}
		o := res.Debug.Omitted
		if o.MessageCount <= 0 || o.TurnCount <= 0 || o.Tokens <= 0 || o.FromSeq != 0 || o.Reason == "" {
			t.Errorf("%s: omitted %+v, want the oldest turns counted with a reason", provider, o)
		}
		if kept := int64(len(msgs)) - o.MessageCount; kept != res.IncludedMessageCount {
			t.Errorf("%s: %d messages left out of %d, but %d included", provider, o.MessageCount, len(msgs), res.IncludedMessageCount)
		}
		if o.ToSeq+1 != int64(len(msgs))-res.IncludedMessageCount || (o.ToSeq+1)%4 != 0 {
			t.Errorf("%s: left out up to message %d, not up to a turn's start", provider, o.ToSeq)
		}
		if !strings.Contains(res.Debug.Text, "Left out: messages 0-") {
			t.Errorf("%s: the report's text does not say what was left out:\n%s", provider, res.Debug.Text)
		}
	}
	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 32_000})
	var sent []struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	json.Unmarshal(res.Messages, &sent)
	opening := string(sent[0].Content[0])
	if sent[0].Role != "user" || !strings.Contains(opening, "ORIGINAL TASK: Turn 0: please look at src/module_0.go") {
		t.Fatalf("the context does not open with the state and the original task: %.300s", opening)
	}
	// The first turn kept opens with its prompt, joined to the state's message.
	firstKept := res.Debug.Omitted.ToSeq + 1
	if prompt := string(sent[0].Content[1]); !strings.Contains(prompt, "Turn "+itoa(firstKept/4)+":") {
		t.Errorf("the first kept turn's prompt does not follow the state: %.200s", prompt)
	}
	last, _ := json.Marshal(msgs[len(msgs)-1]["content"])
	if got, _ := json.Marshal(sent[len(sent)-1].Content); string(got) != string(last) {
		t.Errorf("the context does not end with the session's last message verbatim")
	}
}

// A budget where not even the last turn fits with the state steps down to minimal-state,
// and the report says what recent-turns would have needed.
func TestRecentTurnsStepsDownWhenTheLastTurnDoesNotFit(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(1000, false))
	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 2_600})
	var recent *contextbuild.Attempt
	for i, a := range res.Debug.Attempts {
		if a.Strategy == contextbuild.RecentTurnsName {
			recent = &res.Debug.Attempts[i]
		}
	}
	if res.Strategy == contextbuild.RecentTurnsName || recent == nil {
		t.Fatalf("strategy %s with attempts %+v; want recent-turns tried and skipped", res.Strategy, res.Debug.Attempts)
	}
	if recent.Outcome != contextbuild.OutcomeDoesNotFit || recent.TokensNeeded <= res.TokenBudget {
		t.Errorf("recent-turns attempt %+v, want does not fit with what it needs over %d", *recent, res.TokenBudget)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
