package session_test

import (
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// toolTurn records a prompt, an assistant message calling a tool, its result, and the
// assistant's answer: four messages of one turn.
func toolTurn(t *testing.T, s *session.Session, n string) {
	t.Helper()
	sessiontest.Prompt(t, s, "prompt "+n)
	sessiontest.Feed(t, s,
		sessiontest.Start("a"+n), sessiontest.ToolUse("t"+n, "ls", `{}`), sessiontest.Done("tool_use", ""),
		sessiontest.ToolResult("t"+n, `"files"`),
		sessiontest.Text("answer "+n), sessiontest.Done("end_turn", ""),
	)
}

func turnsOf(t *testing.T, s *session.Session) []session.Turn {
	t.Helper()
	turns, err := s.Turns()
	if err != nil {
		t.Fatalf("Turns: %v", err)
	}
	return turns
}

// checkContiguous checks that turns cover messages 0..n-1 in order, without gaps or overlaps.
func checkContiguous(t *testing.T, turns []session.Turn, n int) {
	t.Helper()
	next := int64(0)
	for i, tr := range turns {
		if tr.Index != int64(i) || tr.StartIndex != next || tr.EndIndex < tr.StartIndex {
			t.Fatalf("turn %d = %+v, want index %d starting at %d", i, tr, i, next)
		}
		next = tr.EndIndex + 1
	}
	if next != int64(n) {
		t.Fatalf("turns end at message %d, want %d", next-1, n-1)
	}
}

func TestPromptStartsTurnAndToolRoundTripStaysInIt(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	toolTurn(t, s, "1")
	sessiontest.Prompt(t, s, "thanks")
	sessiontest.Feed(t, s, sessiontest.Start("b"), sessiontest.Text("welcome"), sessiontest.Done("end_turn", ""))

	want := []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 3}, {Index: 1, StartIndex: 4, EndIndex: 5}}
	if got := turnsOf(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Turns = %+v, want %+v", got, want)
	}
	envs := sessiontest.Envelopes(t, s)
	checkContiguous(t, turnsOf(t, s), len(envs))
	for i, env := range envs {
		wantTurn := float64(0)
		if i >= 4 {
			wantTurn = 1
		}
		if env["turn"] != wantTurn {
			t.Errorf("message %d (%v) turn = %v, want %v", i, env["type"], env["turn"], wantTurn)
		}
	}
}

func TestTurnNumbersContinueAfterReopen(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	id := s.ID()
	toolTurn(t, s, "1")
	toolTurn(t, s, "2")
	lastUUID := sessiontest.Envelopes(t, s)[7]["uuid"]

	e2 := e.Reopen(t)
	s2 := e2.Open(t, id)
	if got := turnsOf(t, s2); len(got) != 2 || got[1] != (session.Turn{Index: 1, StartIndex: 4, EndIndex: 7}) {
		t.Fatalf("Turns after reopen = %+v", got)
	}
	// A tool result continuing the last turn must not start a new one, even in a new process.
	sessiontest.Feed(t, s2, sessiontest.Start("extra"), sessiontest.ToolUse("t9", "ls", `{}`), sessiontest.Done("tool_use", ""), sessiontest.ToolResult("t9", `"x"`))
	env := sessiontest.Prompt(t, s2, "third")
	if env["turn"] != float64(2) {
		t.Fatalf("first prompt after reopen has turn %v, want 2", env["turn"])
	}
	sessiontest.Feed(t, s2, sessiontest.Start("c"), sessiontest.Text("ok"), sessiontest.Done("end_turn", ""))
	turns := turnsOf(t, s2)
	want := []session.Turn{{0, 0, 3}, {1, 4, 9}, {2, 10, 11}}
	if !reflect.DeepEqual(turns, want) {
		t.Fatalf("Turns = %+v, want %+v", turns, want)
	}
	envs := sessiontest.Envelopes(t, s2)
	checkContiguous(t, turns, len(envs))
	if envs[8]["parentUuid"] != lastUUID {
		t.Errorf("first message after reopen has parent %v, want the last uuid before close %v", envs[8]["parentUuid"], lastUUID)
	}
}

func TestSessionStartingWithAssistantIsTurnZero(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("greeting"), sessiontest.Text("Hi, how can I help?"), sessiontest.Done("end_turn", ""))
	if env := sessiontest.Prompt(t, s, "help me"); env["turn"] != float64(1) {
		t.Fatalf("prompt after an opening assistant message has turn %v, want 1", env["turn"])
	}
	want := []session.Turn{{0, 0, 0}, {1, 1, 1}}
	if got := turnsOf(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Turns = %+v, want %+v", got, want)
	}
}
