package session_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/redact"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// applyCalls is a store that notes the Ops of each Apply call before passing them on.
type applyCalls struct {
	session.Store
	mu    sync.Mutex
	calls [][]string
}

func (a *applyCalls) Apply(ops ...session.Op) {
	a.mu.Lock()
	kinds := make([]string, len(ops))
	for i, op := range ops {
		kinds[i] = fmt.Sprintf("%T", op)
	}
	a.calls = append(a.calls, kinds)
	a.mu.Unlock()
	a.Store.Apply(ops...)
}

// since returns the Apply calls made after the first n.
func (a *applyCalls) since(n int) [][]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([][]string{}, a.calls[n:]...)
}

// TestOneStepIsQueuedInOneApply checks that what one call records reaches the store in one
// Apply, which its writer commits whole: a tool result's message never without its block,
// a prompt never without its text.
func TestOneStepIsQueuedInOneApply(t *testing.T) {
	sqliteStore, err := sqlite.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	store := &applyCalls{Store: sqliteStore}
	m := session.NewManager(store)
	t.Cleanup(func() { m.Close() })
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.ToolUse("toolu_1", "bash", `{"command":"ls"}`), sessiontest.Done("tool_use", ""))
	n := len(store.since(0))
	sessiontest.Feed(t, s, sessiontest.ToolResult("toolu_1", `"a.go"`))
	want := []string{"session.BeginMessage", "session.PutBlock"}
	if got := store.since(n); len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprint(want) {
		t.Fatalf("a tool result was queued as %v, want one Apply of %v", got, want)
	}
	n = len(store.since(0))
	if _, err := s.AppendUserMessage([]byte(`"thanks"`)); err != nil {
		t.Fatal(err)
	}
	if got := store.since(n); len(got) != 1 || len(got[0]) < 3 {
		t.Fatalf("a prompt was queued as %v, want one Apply with its begin, block and end", got)
	}
}

// TestOneStepIsOneApplyWithRedaction checks that redacting a step's secrets does not split
// it: the count of redactions is queued in the step's one Apply, not ahead of it.
func TestOneStepIsOneApplyWithRedaction(t *testing.T) {
	sqliteStore, err := sqlite.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	store := &applyCalls{Store: sqliteStore}
	m := session.NewManager(store)
	m.Redact(sessiontest.Must(redact.New(redact.Options{Builtin: true})))
	t.Cleanup(func() { m.Close() })
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf"
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.ToolUse("toolu_1", "bash", `{"command":"env"}`), sessiontest.Done("tool_use", ""))
	n := len(store.since(0))
	sessiontest.Feed(t, s, sessiontest.ToolResult("toolu_1", `"KEY=`+key+`"`))
	want := []string{"session.BeginMessage", "session.AddRedactions", "session.PutBlock"}
	if got := store.since(n); len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprint(want) {
		t.Fatalf("a tool result with a secret was queued as %v, want one Apply of %v", got, want)
	}
}
