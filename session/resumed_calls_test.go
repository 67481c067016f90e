package session_test

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// storeReads is a store that counts the reads that wait on it: a tool call looked up, and
// a Sync (waiting for its writer).
type storeReads struct {
	session.Store
	lookups, syncs atomic.Int64
}

func (r *storeReads) ToolUseSeq(sessionID, toolUseID string) (int64, bool, error) {
	r.lookups.Add(1)
	return r.Store.ToolUseSeq(sessionID, toolUseID)
}

func (r *storeReads) Sync() error {
	r.syncs.Add(1)
	return r.Store.Sync()
}

// openCounted opens the store at path under a Manager, counting its reads.
func openCounted(t *testing.T, path string) (*session.Manager, *storeReads) {
	t.Helper()
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	reads := &storeReads{Store: st}
	m := session.NewManager(reads)
	t.Cleanup(func() { m.Close() })
	return m, reads
}

// The first tool result after a resume answers a call an earlier process recorded: Ingest
// must know that call without reading the store (which waits for its writer), since it
// runs on the JS thread. A result for a call not made is still refused.
func TestAResumedSessionAnswersItsLastCallsWithoutReadingTheStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	m, _ := openCounted(t, path)
	s, err := m.Create(session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "read both")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.ToolUse("toolu_a", "Read", `{"file_path":"a.go"}`),
		sessiontest.ToolUse("toolu_b", "Read", `{"file_path":"b.go"}`), sessiontest.Done("tool_use", ""))
	id := s.ID()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	m, reads := openCounted(t, path)
	s, err = m.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	lookups, syncs := reads.lookups.Load(), reads.syncs.Load()
	sessiontest.Feed(t, s, sessiontest.ToolResult("toolu_a", `"package a"`), sessiontest.ToolResult("toolu_b", `"package b"`))
	if n, k := reads.lookups.Load()-lookups, reads.syncs.Load()-syncs; n != 0 || k != 0 {
		t.Errorf("the results of the resumed calls read the store: %d lookups, %d syncs; want none", n, k)
	}
	if err := s.Ingest(sessiontest.ToolResult("toolu_never", `"x"`)); err == nil {
		t.Error("a result for a call never made was accepted")
	}
	envs := sessiontest.Envelopes(t, s)
	if last := envs[len(envs)-1]; last["type"] != session.TypeToolResult || len(last["message"].(map[string]any)["content"].([]any)) != 2 {
		t.Errorf("last record %v; want the two results in one message", last)
	}
}
