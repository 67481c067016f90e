package branches_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// exchange records a prompt and a text reply with usage; it returns the envelopes of both.
func exchange(t *testing.T, s *session.Session, prompt, reply string, input int) (map[string]any, map[string]any) {
	t.Helper()
	user := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessage(sessiontest.MustMarshal(t, prompt))))
	sessiontest.Feed(t, s, sessiontest.Start("msg_"+reply), sessiontest.Text(reply), sessiontest.Done("end_turn", `{"input_tokens":`+strconv.Itoa(input)+`,"output_tokens":10}`))
	env := sessiontest.Envelopes(t, s)
	return user, env[len(env)-1]
}

// texts returns the first text of each message of the session's conversation.
func texts(t *testing.T, s *session.Session) []string {
	t.Helper()
	var out []string
	for _, m := range sessiontest.Messages(t, s) {
		out = append(out, sessiontest.Content(t, m)[0]["text"].(string))
	}
	return out
}

func turns(t *testing.T, s *session.Session) []session.Turn {
	t.Helper()
	return sessiontest.Must(s.Turns())
}

func TestRewindStartsABranchAndSwitchesBack(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	_, a1 := exchange(t, s, "one", "first", 100)
	_, a2 := exchange(t, s, "two", "second", 200)

	if err := branches.Rewind(s, a1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	if got := texts(t, s); !reflect.DeepEqual(got, []string{"one", "first"}) {
		t.Fatalf("after the rewind the conversation is %q", got)
	}
	if got := sessiontest.Tracker(t, s); got.InputTokens != 100 || got.OutputTokens != 10 || got.ContextTokens != 100 {
		t.Fatalf("after the rewind the tracker is %+v, want the first request's", got)
	}
	if got := turns(t, s); !reflect.DeepEqual(got, []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 1}}) {
		t.Fatalf("turns after the rewind: %+v", got)
	}
	if n := len(sessiontest.Envelopes(t, s)); n != 2 {
		t.Fatalf("envelopes after the rewind: %d, want 2", n)
	}

	u3, _ := exchange(t, s, "three", "third", 300)
	if u3["parentUuid"] != a1["uuid"] || u3["turn"] != float64(1) {
		t.Fatalf("the first message after a rewind follows the head: parent %v turn %v", u3["parentUuid"], u3["turn"])
	}
	if got := texts(t, s); !reflect.DeepEqual(got, []string{"one", "first", "three", "third"}) {
		t.Fatalf("the new branch reads %q", got)
	}
	if got := sessiontest.Tracker(t, s); got.InputTokens != 400 || got.ContextTokens != 300 {
		t.Fatalf("tracker on the new branch: %+v", got)
	}

	// Back to the branch left: the second exchange again, and its requests count again.
	if err := branches.Rewind(s, a2["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	if got := texts(t, s); !reflect.DeepEqual(got, []string{"one", "first", "two", "second"}) {
		t.Fatalf("the first branch reads %q", got)
	}
	if got := sessiontest.Tracker(t, s); got.InputTokens != 300 || got.OutputTokens != 20 || got.ContextTokens != 200 {
		t.Fatalf("tracker back on the first branch: %+v", got)
	}
	if got := turns(t, s); !reflect.DeepEqual(got, []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 1}, {Index: 1, StartIndex: 2, EndIndex: 3}}) {
		t.Fatalf("turns back on the first branch: %+v", got)
	}

	// Nothing was deleted: the tree holds all six records, the two branches under a1.
	tree := sessiontest.Tree(t, s)
	if len(tree.Nodes) != 6 || *tree.Head != a2["uuid"] {
		t.Fatalf("tree: %d nodes, head %v", len(tree.Nodes), *tree.Head)
	}
	if kids := tree.Nodes[1].Children; len(kids) != 2 || kids[1] != u3["uuid"] {
		t.Fatalf("a1's children: %v", kids)
	}
	var onBranch []bool
	for _, n := range tree.Nodes {
		onBranch = append(onBranch, n.OnBranch)
	}
	if !reflect.DeepEqual(onBranch, []bool{true, true, true, true, false, false}) {
		t.Fatalf("onBranch: %v", onBranch)
	}

	// The rewind and the tracker survive a reopen; the next message follows the head.
	id := s.ID()
	e2 := e.Reopen(t)
	s2 := e2.Open(t, id)
	if got := texts(t, s2); !reflect.DeepEqual(got, []string{"one", "first", "two", "second"}) {
		t.Fatalf("after reopening the conversation is %q", got)
	}
	if got := sessiontest.Tracker(t, s2); got.InputTokens != 300 || got.ContextTokens != 200 {
		t.Fatalf("tracker after reopening: %+v", got)
	}
	u4 := sessiontest.Prompt(t, s2, "four")
	if u4["parentUuid"] != a2["uuid"] || u4["turn"] != float64(2) {
		t.Fatalf("after reopening the next message has parent %v turn %v", u4["parentUuid"], u4["turn"])
	}
}

func TestRewindWithoutNewMessagesSurvivesReopen(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u1, _ := exchange(t, s, "one", "first", 1)
	exchange(t, s, "two", "second", 2)
	if err := branches.Rewind(s, u1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	// A sidechain message after the rewind does not move the head.
	if _, err := s.AppendUserMessageWith(sessiontest.MustMarshal(t, "side"), session.MessageOptions{AgentID: "a1"}); err != nil {
		t.Fatal(err)
	}
	id := s.ID()
	s2 := e.Reopen(t).Open(t, id)
	if got := texts(t, s2); !reflect.DeepEqual(got, []string{"one"}) {
		t.Fatalf("after reopening the conversation is %q", got)
	}
	sessiontest.Feed(t, s2, sessiontest.Text("answer"), sessiontest.Done("end_turn", ""))
	env := sessiontest.Envelopes(t, s2)
	if last := env[len(env)-1]; last["parentUuid"] != u1["uuid"] {
		t.Fatalf("the reply follows %v, want the head %v", last["parentUuid"], u1["uuid"])
	}
}

func TestRewindRefusesWhatIsNotOnTheMainChain(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	exchange(t, s, "one", "first", 1)
	side := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessageWith(sessiontest.MustMarshal(t, "sub"), session.MessageOptions{AgentID: "a1"})))
	before := sessiontest.Envelopes(t, s)
	for _, c := range []struct {
		uuid string
		want error
	}{
		{"", session.ErrInvalidArgument},
		{"0190ffff-0000-7000-8000-000000000000", session.ErrMessageNotFound},
		{side["uuid"].(string), session.ErrInvalidArgument},
	} {
		if err := branches.Rewind(s, c.uuid); !errors.Is(err, c.want) {
			t.Errorf("Rewind(%q) = %v, want %v", c.uuid, err, c.want)
		}
	}
	if !reflect.DeepEqual(sessiontest.Envelopes(t, s), before) {
		t.Fatal("a refused rewind changed the session")
	}
}

func TestRewindInterruptsTheMessageStreaming(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u1 := sessiontest.Prompt(t, s, "one")
	sessiontest.Feed(t, s, sessiontest.Start("msg_1"), sessiontest.Text("half an ans"))
	if err := branches.Rewind(s, u1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	tree := sessiontest.Tree(t, s)
	if got := tree.Nodes[1]; got.Status != session.MessageInterrupted || got.OnBranch || got.Preview != "half an ans" {
		t.Fatalf("the reply cut off by the rewind: %+v", got)
	}
}

func TestRewindKeepsTokensRestoredFromElsewhere(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	u1, _ := exchange(t, s, "one", "first", 100)
	if err := s.RestoreTokenTracker(session.TokenTracker{InputTokens: 5100, OutputTokens: 1010, ContextTokens: 100}); err != nil {
		t.Fatal(err)
	}
	exchange(t, s, "two", "second", 200)
	if err := branches.Rewind(s, u1["uuid"].(string)); err != nil {
		t.Fatal(err)
	}
	want := session.TokenTracker{InputTokens: 5000, OutputTokens: 1000}
	if got := sessiontest.Tracker(t, s); got != want {
		t.Fatalf("tracker at the first prompt: %+v, want %+v (the restored tokens beyond the messages' stay)", got, want)
	}
}
