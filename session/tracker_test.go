package session_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func tracker(t *testing.T, s *session.Session) session.TokenTracker {
	t.Helper()
	tr, err := s.TokenTracker()
	if err != nil {
		t.Fatalf("TokenTracker: %v", err)
	}
	return tr
}

func TestTrackerSumsUsageAndKeepsLastContext(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	id := s.ID()
	prompt(t, s, "one")
	feed(t, s, start("a"), text("x"),
		done("end_turn", `{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":300}`))
	prompt(t, s, "two")
	feed(t, s, start("b"), text("y"), done("end_turn", ""), // no usage: counts nothing
		start("c"), text("z"),
		done("end_turn", `{"input_tokens":7,"output_tokens":3,"cache_read_input_tokens":1300,"service_tier":"standard"}`))

	want := session.TokenTracker{
		InputTokens:              107,
		OutputTokens:             23,
		CacheReadInputTokens:     2300,
		CacheCreationInputTokens: 300,
		ContextTokens:            7 + 1300 + 0, // the last request's input + cache tokens, not a sum
	}
	if got := tracker(t, s); got != want {
		t.Fatalf("tracker = %+v, want %+v", got, want)
	}

	e2 := e.reopen(t)
	if got := tracker(t, e2.open(t, id)); got != want {
		t.Fatalf("tracker after reopen = %+v, want %+v (never reset on resume)", got, want)
	}
}

func TestUsageWithoutOpenAssistantStillCounts(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "hi")
	feed(t, s, done("end_turn", `{"input_tokens":5,"output_tokens":1}`))
	if got := tracker(t, s); got.InputTokens != 5 || got.OutputTokens != 1 || got.ContextTokens != 5 {
		t.Fatalf("tracker = %+v", got)
	}
	if n := len(messages(t, s)); n != 1 {
		t.Fatalf("a done chunk with no assistant open created a message: %d messages", n)
	}
}

func TestRestoreTokenTrackerPersistsAndKeepsCounting(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	id := s.ID()
	restored := session.TokenTracker{InputTokens: 5000, OutputTokens: 600, CacheReadInputTokens: 70000,
		CacheCreationInputTokens: 800, ContextTokens: 42000}
	if err := s.RestoreTokenTracker(restored); err != nil {
		t.Fatal(err)
	}
	e2 := e.reopen(t)
	s2 := e2.open(t, id)
	if got := tracker(t, s2); got != restored {
		t.Fatalf("restored tracker after reopen = %+v, want %+v", got, restored)
	}
	feed(t, s2, start("a"), done("end_turn", `{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":3}`))
	want := session.TokenTracker{InputTokens: 5001, OutputTokens: 602, CacheReadInputTokens: 70000,
		CacheCreationInputTokens: 803, ContextTokens: 4}
	if got := tracker(t, s2); got != want {
		t.Fatalf("tracker = %+v, want %+v", got, want)
	}
}
