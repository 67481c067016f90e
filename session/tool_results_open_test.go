package session_test

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// An agent builds its next call right after its tools answered, while the message of tool
// results is still open: the context must hold the real results, not synthetic
// "interrupted" ones, and closing the session leaves those results complete.
func TestToolResultsStillOpenAreInTheContextAndEndComplete(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "read a.go")
	sessiontest.Feed(t, s, sessiontest.Start("msg_1"), sessiontest.ToolUse("toolu_a", "Read", `{"file_path":"a.go"}`), sessiontest.Done("tool_use", `{"input_tokens":10,"output_tokens":5}`),
		sessiontest.ToolResult("toolu_a", `"package a"`))
	res, err := contextbuild.Build(s, contextbuild.BuildOptions{ContextWindow: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Messages)
	if !strings.Contains(out, `"package a"`) || strings.Contains(out, "interrupted") {
		t.Fatalf("context %s; want the real result", out)
	}
	// A session closed with its tool results open, no context built.
	other := e.Create(t)
	sessiontest.Prompt(t, other, "read b.go")
	sessiontest.Feed(t, other, sessiontest.Start("msg_2"), sessiontest.ToolUse("toolu_b", "Read", `{"file_path":"b.go"}`), sessiontest.Done("tool_use", `{"input_tokens":10,"output_tokens":5}`),
		sessiontest.ToolResult("toolu_b", `"package b"`))
	ids := []string{s.ID(), other.ID()}
	s.Close()
	other.Close()
	again := e.Reopen(t)
	for _, id := range ids {
		for _, env := range sessiontest.Envelopes(t, again.Open(t, id)) {
			if env["status"] != session.MessageComplete {
				t.Errorf("%s: %s message %v; want every message complete", id, env["type"], env["status"])
			}
		}
	}
}
