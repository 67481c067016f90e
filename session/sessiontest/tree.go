package sessiontest

import (
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
)

// Tree returns the session's tree as branches.ReadTree gives it, decoded.
func Tree(t testing.TB, s *session.Session) branches.Tree {
	t.Helper()
	var tree branches.Tree
	if err := json.Unmarshal(Must(branches.ReadTree(s)), &tree); err != nil {
		t.Fatal(err)
	}
	return tree
}
