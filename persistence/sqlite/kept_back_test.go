package sqlite

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestTheBatchsLastTrackerIsStored: of the trackers a batch sets, the last is what the
// session holds, and one kept back is written before a management op of the same batch:
// a session deleted and another created in its place (SQLite gives it the freed sid) must
// not get the deleted one's counts.
func TestTheBatchsLastTrackerIsStored(t *testing.T) {
	s, _ := openTemp(t)
	ops := []session.Op{session.CreateSession{Info: newInfo("kept")}, session.CreateSession{Info: newInfo("gone")}}
	for i := int64(1); i <= 3; i++ {
		ops = append(ops,
			session.SetTracker{SessionID: "kept", Tracker: session.TokenTracker{InputTokens: i, OutputTokens: 10 * i, ContextTokens: 100 * i}},
			session.SetTracker{SessionID: "gone", Tracker: session.TokenTracker{InputTokens: 7 * i, CacheReadInputTokens: i}})
	}
	ops = append(ops, session.DeleteSession{SessionID: "gone"}, session.CreateSession{Info: newInfo("new")})
	s.Apply(ops...) // queued at once: one batch, unless the writer takes the first ops alone
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]session.TokenTracker{
		"kept": {InputTokens: 3, OutputTokens: 30, ContextTokens: 300},
		"new":  {},
	} {
		st, err := s.LoadSession(id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Tracker != want {
			t.Errorf("%s: tracker %+v, want %+v", id, st.Tracker, want)
		}
	}
}

// TestToolCallsOfABatchAreIndexedInOrder: the tool calls a batch's blocks start are all
// found, a repeated id keeps the first message's seq, ids that need escaping in JSON or are
// not UTF-8 are stored byte for byte, the session counts each call once, and one kept
// back is written before a fork of the same batch copies the session's calls.
func TestToolCallsOfABatchAreIndexedInOrder(t *testing.T) {
	s, path := openTemp(t)
	const id = "calls"
	ids := []string{"toolu_1", `to"ol\u2`, "tool\xff3", "toolu_4", "toolu_1"}
	ops := []session.Op{session.CreateSession{Info: newInfo(id)}}
	for i, call := range ids {
		seq := int64(i)
		ops = append(ops, begin(id, seq),
			session.PutBlock{SessionID: id, Seq: seq, Index: 0, ToolUseID: call,
				JSON: []byte(`{"type":"tool_use","id":"x","name":"Read","input":{}}`)},
			end(id, seq))
	}
	fork := newInfo("fork")
	fork.ForkedFrom = &session.ForkOrigin{SessionID: id, UUID: "uuid-2"}
	ops = append(ops, session.ForkSession{Info: fork, From: id, Seqs: []int64{0, 1, 2}})
	s.Apply(ops...)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for sessionID, want := range map[string]map[string]int64{
		id:     {"toolu_1": 0, `to"ol\u2`: 1, "tool\xff3": 2, "toolu_4": 3},
		"fork": {"toolu_1": 0, `to"ol\u2`: 1, "tool\xff3": 2},
	} {
		for call, seq := range want {
			got, found, err := s.ToolUseSeq(sessionID, call)
			if err != nil || !found || got != seq {
				t.Errorf("%s: tool call %q: seq %d, found %v (%v), want %d", sessionID, call, got, found, err, seq)
			}
		}
	}
	if n := queryInt(t, rawDB(t, path), `SELECT tool_count FROM sessions WHERE id = ?`, id); n != 4 {
		t.Errorf("tool_count %d, want 4", n)
	}
}
