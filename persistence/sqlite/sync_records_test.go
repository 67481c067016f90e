package sqlite

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/commitqueue"
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

// The records of an access and a close queued alone do not wake the writer at once, but
// are committed a commit window later without anyone waiting for them; anything else
// queued after them takes them along at once.
func TestBookkeepingCommitsAWindowLater(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s1")})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	committed := func() uint64 {
		s.w.q.Lock()
		defer s.w.q.Unlock()
		return s.w.q.Committed()
	}
	before := committed()
	queued := time.Now()
	s.Apply(session.AccessSession{SessionID: "s1", At: queued.Add(time.Hour)})
	s.Apply(session.CloseSession{SessionID: "s1", At: queued.Add(time.Hour)})
	if c := committed(); time.Since(queued) < commitqueue.CommitWindow/2 && c != before {
		t.Fatalf("committed %d ops right after an access and a close were queued, want none", c-before)
	}
	deadline := time.Now().Add(5 * time.Second)
	for committed() != before+2 {
		if time.Now().After(deadline) {
			t.Fatal("an access and a close queued alone were not committed without a Sync")
		}
		time.Sleep(time.Millisecond)
	}
	if at := queryInt(t, rawDB(t, path), `SELECT last_accessed_at FROM sessions WHERE id = 's1'`); at < queued.Add(time.Hour).UnixMilli() {
		t.Errorf("last access %d, want the queued access's %d", at, queued.Add(time.Hour).UnixMilli())
	}

	s.Apply(session.AccessSession{SessionID: "s1", At: time.Now()})
	s.Apply(begin("s1", 0))
	if err := s.SyncRecords(); err != nil {
		t.Fatal(err)
	}
	if c := committed(); c != before+4 {
		t.Errorf("%d ops committed with a message queued after an access, want 2", c-before-2)
	}
}
