package contextbuild_test

import (
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// A build restricted to a band of priorities returns no strategy when none in it fits,
// reports the attempts made before it first, and leaves the last report alone.
func TestBuildRestrictedToABandReturnsNoStrategyWhenNoneFits(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(1000, false))
	through, earlier := 2.0, contextbuild.Attempt{Strategy: "mine", Outcome: contextbuild.OutcomeBelowMinimum}
	opts := contextbuild.BuildOptions{ContextWindow: 32_000}
	opts.PriorityThrough, opts.Attempts = &through, []contextbuild.Attempt{earlier}
	res, err := contextbuild.Build(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Strategy != "" || res.Messages != nil || res.TokenBudget != 24_000 {
		t.Fatalf("strategy %q, budget %d; want none within 24,000", res.Strategy, res.TokenBudget)
	}
	got := res.Debug.Attempts
	if len(got) != 3 || got[0].Strategy != "mine" || got[0].Outcome != earlier.Outcome || got[1].Strategy != contextbuild.FullHistoryName || got[2].Strategy != contextbuild.PrunedToolsName {
		t.Errorf("attempts %+v; want mine, full-history, pruned-tools", got)
	}
	if r, _ := contextbuild.DebugContext(s); r != nil {
		t.Errorf("a build that chose nothing was kept as the last report: %+v", r)
	}
}

// A candidate is measured after repairs: chosen when it fits, else reported over budget.
func TestCandidateIsMeasuredRepairedAndValidated(t *testing.T) {
	e := sessiontest.NewEnv(t)
	msgs := sessiontest.Conversation(1000, false)
	s := sessiontest.WithMessages(t, e, msgs)
	last, _ := json.Marshal(msgs[len(msgs)-6:]) // starts at a tool result whose call is left out
	opts := contextbuild.BuildOptions{ContextWindow: 32_000, Format: tokens.ProviderOpenAI}
	opts.Candidate = &contextbuild.Candidate{Strategy: "tail", Messages: last}
	res := build(t, s, opts)
	if res.Strategy != "tail" || res.IncludedMessageCount != 6 {
		t.Fatalf("strategy %q including %d; want tail including 6", res.Strategy, res.IncludedMessageCount)
	}
	if len(res.Debug.Repairs) == 0 || res.Debug.Repairs[0].Kind != contextbuild.RepairOrphanResult {
		t.Errorf("repairs %+v; want the orphan result dropped first", res.Debug.Repairs)
	}
	all, _ := json.Marshal(msgs)
	opts.Candidate = &contextbuild.Candidate{Strategy: "all", Messages: all}
	res, err := contextbuild.Build(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Debug.Attempts[0]
	if res.Strategy != "" || a.Outcome != contextbuild.OutcomeOverAfterRepair || a.TokensUsed <= res.TokenBudget {
		t.Errorf("strategy %q, attempt %+v; want none, over budget", res.Strategy, a)
	}
	opts.Candidate = &contextbuild.Candidate{Strategy: "bad", Messages: json.RawMessage(`[{"role":"system","content":"x"}]`)}
	if _, err := contextbuild.Build(s, opts); err == nil {
		t.Error("a candidate with a system message was accepted")
	}
}
