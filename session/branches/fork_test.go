package branches_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// withSubagent records a prompt whose reply runs a subagent through the Task tool call
// toolu_task, and the reply after it; it returns the envelope of the call's message.
func withSubagent(t *testing.T, s *session.Session) map[string]any {
	t.Helper()
	sessiontest.Prompt(t, s, "write a poem")
	sessiontest.Feed(t, s, sessiontest.Start("msg_main"), sessiontest.ToolUse("toolu_task", "Task", `{"prompt":"poem"}`), sessiontest.Done("tool_use", `{"input_tokens":50,"output_tokens":5}`))
	call := sessiontest.Envelopes(t, s)[1]
	side := session.MessageOptions{AgentID: "a1", ParentToolUseID: "toolu_task"}
	if _, err := s.AppendUserMessageWith(sessiontest.MustMarshal(t, "poem"), side); err != nil {
		t.Fatal(err)
	}
	sessiontest.Feed(t, s, stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_sub", State: sessiontest.MustMarshal(t, side)},
		sessiontest.Text("roses"), sessiontest.Done("end_turn", `{"input_tokens":7,"output_tokens":3}`))
	sessiontest.Feed(t, s, sessiontest.ToolResult("toolu_task", `"roses"`), sessiontest.Start("msg_main2"), sessiontest.Text("here it is"), sessiontest.Done("end_turn", `{"input_tokens":80,"output_tokens":4}`))
	return call
}

func TestForkSharesTheHistoryUpToTheHead(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	withSubagent(t, s)
	before := sessiontest.Envelopes(t, s)

	f, err := branches.Fork(s, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.ID() == s.ID() {
		t.Fatal("the fork has the origin's id")
	}
	got := sessiontest.Envelopes(t, f)
	if len(got) != len(before) {
		t.Fatalf("the fork has %d records, the origin %d", len(got), len(before))
	}
	for i := range got {
		if got[i]["sessionId"] != f.ID() {
			t.Fatalf("record %d of the fork names session %v", i, got[i]["sessionId"])
		}
		delete(got[i], "sessionId")
		delete(before[i], "sessionId")
	}
	if !reflect.DeepEqual(got, before) {
		t.Fatalf("the fork's records differ from the origin's:\n%v\n%v", got, before)
	}
	if !reflect.DeepEqual(sessiontest.Tracker(t, f), sessiontest.Tracker(t, s)) || !reflect.DeepEqual(turns(t, f), turns(t, s)) {
		t.Fatalf("the fork's tracker or turns differ: %+v %+v", sessiontest.Tracker(t, f), turns(t, f))
	}
	info := sessiontest.Must(catalog.Info(f, nil))
	if info.ForkedFrom == nil || info.ForkedFrom.SessionID != s.ID() || info.ForkedFrom.UUID != before[len(before)-1]["uuid"] {
		t.Fatalf("forkedFrom: %+v", info.ForkedFrom)
	}
	if info.MessageCount != int64(len(before)) || info.ToolCount != 1 || info.Title != "write a poem" {
		t.Fatalf("the fork's listing: %+v", info.SessionInfo)
	}

	// The two go their own ways.
	sessiontest.Prompt(t, f, "only in the fork")
	if n := len(sessiontest.Envelopes(t, s)); n != len(before) {
		t.Fatalf("writing to the fork changed the origin: %d records", n)
	}
	list := sessiontest.Must(catalog.List(e.Mgr, catalog.ListFilter{}))
	if len(list) != 2 || list[0].ID != f.ID() || list[0].ForkedFrom == nil || list[1].ForkedFrom != nil {
		t.Fatalf("listing: %+v", list)
	}
}

func TestForkFromAnEarlierMessageLeavesLaterSidechainsBehind(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	call := withSubagent(t, s)
	first := sessiontest.Envelopes(t, s)[0]

	f, err := branches.Fork(s, first["uuid"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if got := sessiontest.Envelopes(t, f); len(got) != 1 || got[0]["uuid"] != first["uuid"] {
		t.Fatalf("a fork from the first prompt holds %v", got)
	}
	if got := sessiontest.Tracker(t, f); got != (session.TokenTracker{}) {
		t.Fatalf("a fork from before any reply has tracker %+v", got)
	}

	// From the call itself: the sidechain it started comes along, the reply after does not.
	f2 := sessiontest.Must(branches.Fork(s, call["uuid"].(string)))
	var kinds []string
	for _, e := range sessiontest.Envelopes(t, f2) {
		kinds = append(kinds, e["type"].(string)+sideMark(e))
	}
	if want := []string{"user", "assistant", "user*", "assistant*"}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("a fork from the Task call holds %v, want %v", kinds, want)
	}
	if got := sessiontest.Tracker(t, f2); got.InputTokens != 57 || got.ContextTokens != 7 {
		t.Fatalf("tracker of the fork from the call: %+v", got)
	}
	// Its next message follows the call.
	sessiontest.Feed(t, f2, sessiontest.ToolResult("toolu_task", `"violets"`))
	env := sessiontest.Envelopes(t, f2)
	if last := env[len(env)-1]; last["parentUuid"] != call["uuid"] {
		t.Fatalf("the fork's next message follows %v", last["parentUuid"])
	}
}

func sideMark(e map[string]any) string {
	if e["isSidechain"] == true {
		return "*"
	}
	return ""
}

func TestForkFromAnotherBranchAndRefusals(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	_, a1 := exchange(t, s, "one", "first", 1)
	_, a2 := exchange(t, s, "two", "second", 2)
	if err := branches.Rewind(s, a1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	exchange(t, s, "three", "third", 3)

	f := sessiontest.Must(branches.Fork(s, a2["uuid"].(string)))
	if got := texts(t, f); !reflect.DeepEqual(got, []string{"one", "first", "two", "second"}) {
		t.Fatalf("a fork from the branch left reads %q", got)
	}
	if got := texts(t, s); !reflect.DeepEqual(got, []string{"one", "first", "three", "third"}) {
		t.Fatalf("forking moved the origin: %q", got)
	}
	empty := e.Create(t)
	if _, err := branches.Fork(empty, ""); !errors.Is(err, session.ErrInvalidArgument) {
		t.Errorf("forking an empty session: %v", err)
	}
	if _, err := branches.Fork(s, "0190ffff-0000-7000-8000-000000000000"); !errors.Is(err, session.ErrMessageNotFound) {
		t.Errorf("forking from an unknown uuid: %v", err)
	}

	// The fork copied one branch, so it reads the same after a reopen.
	id := f.ID()
	f2 := e.Reopen(t).Open(t, id)
	if got := texts(t, f2); !reflect.DeepEqual(got, []string{"one", "first", "two", "second"}) {
		t.Fatalf("the fork after reopening reads %q", got)
	}
	if tree := sessiontest.Tree(t, f2); len(tree.Nodes) != 4 || len(tree.Roots) != 1 {
		t.Fatalf("the fork's tree: %+v", tree)
	}
}

func TestForkWhileAMessageStreams(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "explain")
	sessiontest.Feed(t, s, sessiontest.Start("msg_1"), sessiontest.Text("half of it"))
	f := sessiontest.Must(branches.Fork(s, ""))
	copied := sessiontest.Envelopes(t, f)
	if len(copied) != 2 || copied[1]["status"] != session.MessageInterrupted {
		t.Fatalf("the fork's copy of a streaming reply: %v", copied)
	}
	if got := sessiontest.Content(t, copied[1]["message"].(map[string]any))[0]["text"]; got != "half of it" {
		t.Fatalf("the fork's copy holds %v", got)
	}
	sessiontest.Feed(t, s, sessiontest.Text(", and the rest"), sessiontest.Done("end_turn", ""))
	if env := sessiontest.Envelopes(t, s); env[1]["status"] != session.MessageComplete {
		t.Fatalf("the origin's reply after the fork: %v", env[1]["status"])
	}
}

func TestRewindThenASubagentStartsAgainFromItsCall(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	call := withSubagent(t, s)
	u := sessiontest.Envelopes(t, s)[0]
	if err := branches.Rewind(s, u["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	sessiontest.Feed(t, s, sessiontest.Start("msg_again"), sessiontest.ToolUse("toolu_task2", "Task", `{}`), sessiontest.Done("tool_use", ""))
	side := session.MessageOptions{AgentID: "a1", ParentToolUseID: "toolu_task2"}
	if _, err := s.AppendUserMessageWith(sessiontest.MustMarshal(t, "poem again"), side); err != nil {
		t.Fatal(err)
	}
	env := sessiontest.Envelopes(t, s)
	last := env[len(env)-1]
	if len(env) != 3 || last["isSidechain"] != true || last["parentUuid"] != nil {
		t.Fatalf("the subagent on the new branch: %v", env)
	}
	if env[1]["uuid"] == call["uuid"] {
		t.Fatal("the old call is still on the branch")
	}
}
