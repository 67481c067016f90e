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
