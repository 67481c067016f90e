package contextbuild_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// TestContextFollowsTheBranchAtTheHead: after a rewind the context is the branch that ends
// at the head — never the messages the rewind left — and summaries and boundaries made on
// one branch serve only the branches that share what they summarize.
func TestContextFollowsTheBranchAtTheHead(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := sessiontest.WithMessages(t, e, sessiontest.Conversation(40, false)) // turns 0-9
	envs := envelopeList(t, s)
	old := envs[len(envs)-1]["uuid"].(string)
	if err := branches.Rewind(s, envs[23]["uuid"].(string)); err != nil { // the end of turn 5
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		sessiontest.Prompt(t, s, "Branch B, step "+string(rune('a'+i))+": "+strings.Repeat("new direction ", 50))
		sessiontest.Feed(t, s, sessiontest.Start("msg_b"), sessiontest.Text("On branch B."), sessiontest.Done("end_turn", ""))
	}
	res := build(t, s, contextbuild.BuildOptions{ContextWindow: 200_000})
	requireBranch(t, s, res)
	if strings.Contains(string(res.Messages), "Turn 6:") {
		t.Fatal("the context holds a message the rewind left")
	}

	z := &summarizer{}
	plan := compact(t, s, 3, z)
	for _, c := range z.calls {
		if strings.Contains(string(c), "Turn 6:") {
			t.Fatal("the summarizer was given a message the rewind left")
		}
	}
	res = build(t, s, contextbuild.BuildOptions{ContextWindow: 200_000})
	if res.SummarizedMessageCount != plan.CutSeq || strings.Contains(string(res.Messages), "Turn 6:") {
		t.Fatalf("after compacting branch B: %s, %d summarized", res.Strategy, res.SummarizedMessageCount)
	}

	if err := branches.Rewind(s, old); err != nil { // back to branch A: B's summary does not cover it
		t.Fatal(err)
	}
	res = build(t, s, contextbuild.BuildOptions{ContextWindow: 200_000})
	requireBranch(t, s, res)
	if res.SummarizedMessageCount != 0 || strings.Contains(string(res.Messages), "Branch B") {
		t.Fatalf("branch A's context uses branch B: %d summarized", res.SummarizedMessageCount)
	}
	for _, w := range windows {
		build(t, s, contextbuild.BuildOptions{ContextWindow: w})
	}
}

// requireBranch checks a full-history context against messages(), which follows the branch.
func requireBranch(t *testing.T, s *session.Session, res *contextbuild.ContextResult) {
	t.Helper()
	raw, _ := s.Messages(false)
	var want, got []map[string]any
	json.Unmarshal(raw, &want)
	json.Unmarshal(res.Messages, &got)
	if res.Strategy != contextbuild.FullHistoryName || len(got) != len(want) {
		t.Fatalf("%s: sent %d messages, the branch has %d", res.Strategy, len(got), len(want))
	}
	for i := range got {
		if !sameContent(got[i]["content"], want[i]["content"]) {
			t.Fatalf("message %d is not the branch's", i)
		}
	}
}

func envelopeList(t *testing.T, s *session.Session) []map[string]any {
	t.Helper()
	raw, err := s.Messages(true)
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	json.Unmarshal(raw, &list)
	return list
}
