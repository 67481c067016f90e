package catalog_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestDetailsCountTrackerTokensTheMessagesDoNotReport(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hi")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.Text("hello"),
		sessiontest.Done("end_turn", `{"input_tokens":10,"output_tokens":5}`))
	restored := sessiontest.Tracker(t, s)
	restored.InputTokens += 100
	restored.CacheReadInputTokens += 7
	if err := s.RestoreTokenTracker(restored); err != nil {
		t.Fatal(err)
	}
	d, err := catalog.Info(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := catalog.ModelUsage{Model: "claude-test", Requests: 1, InputTokens: 110, OutputTokens: 5, CacheReadInputTokens: 7}
	if len(d.Usage) != 1 || d.Usage[0] != want {
		t.Errorf("usage = %+v, want [%+v]", d.Usage, want)
	}
	if d.Interactions != 1 || d.AssistantMessages != 1 || d.Tokens.InputTokens != 110 {
		t.Errorf("details = %+v", d)
	}
}
