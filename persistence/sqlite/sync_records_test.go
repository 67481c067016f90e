package sqlite

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// SyncRecords returns at once when only access records are waiting to be committed, and
// waits for anything else: here another connection holds the write lock, so nothing can
// commit until it lets go.
func TestSyncRecordsWaitsForRecordsNotAccesses(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s1")})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	release := holdWriteLock(t, path)
	s.Apply(session.AccessSession{SessionID: "s1", At: time.Now()})
	done := make(chan error, 1)
	go func() { done <- s.SyncRecords() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("SyncRecords waited for an access record")
	}

	s.Apply(begin("s1", 0), session.AccessSession{SessionID: "s1", At: time.Now()})
	go func() { done <- s.SyncRecords() }()
	select {
	case <-done:
		t.Fatal("SyncRecords returned before a message queued before an access was committed")
	case <-time.After(200 * time.Millisecond):
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, rawDB(t, path), `SELECT COUNT(*) FROM messages`); n != 1 {
		t.Errorf("%d messages after SyncRecords, want 1", n)
	}
}
