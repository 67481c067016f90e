package session_test

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// An agent builds its next call right after its tools answered, while the message of tool
// results is still open: the context must hold the real results, not synthetic
// "interrupted" ones, and closing the session leaves those results complete.
func TestToolResultsStillOpenAreInTheContextAndEndComplete(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "read a.go")
	feed(t, s, start("msg_1"), toolUse("toolu_a", "Read", `{"file_path":"a.go"}`), done("tool_use", `{"input_tokens":10,"output_tokens":5}`),
		toolResult("toolu_a", `"package a"`))
	res, err := s.BuildContext(session.BuildOptions{ContextWindow: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Messages)
	if !strings.Contains(out, `"package a"`) || strings.Contains(out, "interrupted") {
		t.Fatalf("context %s; want the real result", out)
	}
	// A session closed with its tool results open, no context built.
	other := e.create(t)
	prompt(t, other, "read b.go")
	feed(t, other, start("msg_2"), toolUse("toolu_b", "Read", `{"file_path":"b.go"}`), done("tool_use", `{"input_tokens":10,"output_tokens":5}`),
		toolResult("toolu_b", `"package b"`))
	ids := []string{s.ID(), other.ID()}
	s.Close()
	other.Close()
	again := e.reopen(t)
	for _, id := range ids {
		for _, env := range envelopes(t, again.open(t, id)) {
			if env["status"] != session.MessageComplete {
				t.Errorf("%s: %s message %v; want every message complete", id, env["type"], env["status"])
			}
		}
	}
}
