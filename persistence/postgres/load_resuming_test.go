package postgres

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// countedReads is a Store that counts the reads an open and a resumed tool result make.
type countedReads struct {
	*Store
	loads, backward, branched, lookups atomic.Int64
}

func (r *countedReads) LoadSessionResuming(id string, back int64, fn func(*session.StoredMessage) bool) (session.SessionState, error) {
	r.loads.Add(1)
	return r.Store.LoadSessionResuming(id, back, fn)
}

func (r *countedReads) ScanMessagesBackward(id string, from int64, fn func(*session.StoredMessage) bool) error {
	r.backward.Add(1)
	return r.Store.ScanMessagesBackward(id, from, fn)
}

func (r *countedReads) Branched(id string) (bool, error) {
	r.branched.Add(1)
	return r.Store.Branched(id)
}

func (r *countedReads) ToolUseSeq(id, toolUseID string) (int64, bool, error) {
	r.lookups.Add(1)
	return r.Store.ToolUseSeq(id, toolUseID)
}

// TestAnOpenLearnsTheLastCallsInOneRead reopens a session whose last turn made two tool
// calls after an earlier turn's: the open is one read (the load and the backward scan in one
// batch), and the results of the last calls are then taken without a lookup; a result for a
// call never made is still refused.
func TestAnOpenLearnsTheLastCallsInOneRead(t *testing.T) {
	url := freshURL(t)
	m := session.NewManager(openAt(t, url))
	s, err := m.Create(session.CreateOptions{Title: "resumed"})
	if err != nil {
		t.Fatal(err)
	}
	sessiontest.Prompt(t, s, "read a")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.ToolUse("toolu_a", "Read", `{"file_path":"a.go"}`), sessiontest.Done("tool_use", ""))
	sessiontest.Feed(t, s, sessiontest.ToolResult("toolu_a", `"package a"`))
	sessiontest.Feed(t, s, sessiontest.Start("m2"), sessiontest.ToolUse("toolu_b", "Read", `{"file_path":"b.go"}`),
		sessiontest.ToolUse("toolu_c", "Read", `{"file_path":"c.go"}`), sessiontest.Done("tool_use", ""))
	if err := m.Close(); err != nil { // the session closed: no other writer holds it open
		t.Fatal(err)
	}

	reads := &countedReads{Store: openAt(t, url)}
	again, err := session.NewManager(reads).Open(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if l, b, br := reads.loads.Load(), reads.backward.Load(), reads.branched.Load(); l != 1 || b != 0 || br != 0 {
		t.Errorf("the open made %d resuming loads, %d backward scans, %d branch looks; want 1, 0, 0", l, b, br)
	}
	sessiontest.Feed(t, again, sessiontest.ToolResult("toolu_b", `"package b"`), sessiontest.ToolResult("toolu_c", `"package c"`))
	if n := reads.lookups.Load(); n != 0 {
		t.Errorf("the results of the last turn's calls made %d lookups, want none", n)
	}
	if err := again.Ingest(sessiontest.ToolResult("toolu_never", `"x"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("a result for a call never made: %v, want ErrUnknownToolUse", err)
	}
}
