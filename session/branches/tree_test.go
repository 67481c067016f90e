package branches_test

import (
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestReadTreeLaysOutTheBranchesAndMarksTheHead(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	if tree := sessiontest.Tree(t, s); tree.Head != nil || len(tree.Roots) != 0 || len(tree.Nodes) != 0 {
		t.Fatalf("empty session: tree = %+v", tree)
	}
	sessiontest.Prompt(t, s, "first")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.Text("one"), sessiontest.Done("end_turn", ""))
	reply := sessiontest.Envelopes(t, s)[1]["uuid"].(string)
	sessiontest.Prompt(t, s, "second")
	if err := branches.Rewind(s, reply); err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "another way")

	tree := sessiontest.Tree(t, s)
	type node struct {
		Preview, Role          string
		Children               int
		IsHead, OnBranch, Root bool
	}
	var got []node
	for _, n := range tree.Nodes {
		got = append(got, node{n.Preview, n.Role, len(n.Children), n.IsHead, n.OnBranch, n.ParentUUID == nil})
	}
	want := []node{
		{"first", "user", 1, false, true, true},
		{"one", "assistant", 2, false, true, false}, // the rewind made it a fork in the road
		{"second", "user", 0, false, false, false},
		{"another way", "user", 0, true, true, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes =\n%+v\nwant\n%+v", got, want)
	}
	if tree.Head == nil || *tree.Head != tree.Nodes[3].UUID || !reflect.DeepEqual(tree.Roots, []string{tree.Nodes[0].UUID}) {
		t.Errorf("head %v, roots %v; want the last prompt and the first", tree.Head, tree.Roots)
	}
	if want := []string{tree.Nodes[2].UUID, tree.Nodes[3].UUID}; !reflect.DeepEqual(tree.Nodes[1].Children, want) {
		t.Errorf("children of the reply = %v, want both prompts in the order written %v", tree.Nodes[1].Children, want)
	}
	if n := tree.Nodes[0]; n.Status != session.MessageComplete || n.Timestamp == "" {
		t.Errorf("first node: status %q, timestamp %q; want complete with a time", n.Status, n.Timestamp)
	}
}
