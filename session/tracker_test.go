package session_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestTrackerSumsUsageAndKeepsLastContext(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	id := s.ID()
	sessiontest.Prompt(t, s, "one")
	sessiontest.Feed(t, s, sessiontest.Start("a"), sessiontest.Text("x"),
		sessiontest.Done("end_turn", `{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":300}`))
	sessiontest.Prompt(t, s, "two")
	sessiontest.Feed(t, s, sessiontest.Start("b"), sessiontest.Text("y"), sessiontest.Done("end_turn", ""), // no usage: counts nothing
		sessiontest.Start("c"), sessiontest.Text("z"),
		sessiontest.Done("end_turn", `{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":1300,"service_tier":"standard"}`))

	want := session.TokenTracker{
		InputTokens:              107,
		OutputTokens:             23,
		CacheReadInputTokens:     2300,
		CacheCreationInputTokens: 300,
		ContextTokens:            7 + 1300 + 0, // the last request's input + cache tokens, not a sum
	}
	if got := sessiontest.Tracker(t, s); got != want {
		t.Fatalf("tracker = %+v, want %+v", got, want)
	}

	e2 := e.Reopen(t)
	if got := sessiontest.Tracker(t, e2.Open(t, id)); got != want {
		t.Fatalf("tracker after reopen = %+v, want %+v (never reset on resume)", got, want)
	}
}

func TestUsageWithoutOpenAssistantStillCounts(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hi")
	sessiontest.Feed(t, s, sessiontest.Done("end_turn", `{"input_tokens":5,"output_tokens":1}`))
	if got := sessiontest.Tracker(t, s); got.InputTokens != 5 || got.OutputTokens != 1 || got.ContextTokens != 5 {
		t.Fatalf("tracker = %+v", got)
	}
	if n := len(sessiontest.Messages(t, s)); n != 1 {
		t.Fatalf("a done chunk with no assistant open created a message: %d messages", n)
	}
}

func TestRestoreTokenTrackerPersistsAndKeepsCounting(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	id := s.ID()
	restored := session.TokenTracker{InputTokens: 5000, OutputTokens: 600, CacheReadInputTokens: 70000,
		CacheCreationInputTokens: 800, ContextTokens: 42000}
	if err := s.RestoreTokenTracker(restored); err != nil {
		t.Fatal(err)
	}
	e2 := e.Reopen(t)
	s2 := e2.Open(t, id)
	if got := sessiontest.Tracker(t, s2); got != restored {
		t.Fatalf("restored tracker after reopen = %+v, want %+v", got, restored)
	}
	sessiontest.Feed(t, s2, sessiontest.Start("a"), sessiontest.Done("end_turn", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":3}`))
	want := session.TokenTracker{InputTokens: 5001, OutputTokens: 602, CacheReadInputTokens: 70000,
		CacheCreationInputTokens: 803, ContextTokens: 4}
	if got := sessiontest.Tracker(t, s2); got != want {
		t.Fatalf("tracker = %+v, want %+v", got, want)
	}
}
