package sqlite

import (
	"errors"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// waitVersion waits up to bound for the watched session's change count to pass seen.
func waitVersion(t *testing.T, s *Store, id string, seen uint64, bound time.Duration) (uint64, time.Duration) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < bound {
		v, err := s.WatchVersion(id)
		if err != nil {
			t.Fatal(err)
		}
		if v != seen {
			return v, time.Since(start)
		}
		time.Sleep(time.Millisecond)
	}
	return seen, time.Since(start)
}

// TestWatchSeesAnotherConnectionsCommits: a store that watches a session hears of each
// commit another store (another connection, as another process would be) makes to it,
// within the bound, and not of commits to other sessions.
func TestWatchSeesAnotherConnectionsCommits(t *testing.T) {
	writer, path := openTemp(t)
	m := session.NewManager(writer)
	followed := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p"})
	other := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p"})
	if err := writer.Flush(); err != nil {
		t.Fatal(err)
	}
	reader := openAt(t, path)
	seen, err := reader.Watch(followed.ID())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := followed.AppendUserMessage([]byte(`"hello"`)); err != nil {
			t.Fatal(err)
		}
		if err := writer.Flush(); err != nil {
			t.Fatal(err)
		}
		v, took := waitVersion(t, reader, followed.ID(), seen, 250*time.Millisecond)
		if v == seen {
			t.Fatalf("commit %d not seen within 250 ms", i)
		}
		t.Logf("commit %d seen after %v", i, took)
		seen = v
	}
	if _, err := other.AppendUserMessage([]byte(`"elsewhere"`)); err != nil {
		t.Fatal(err)
	}
	if err := writer.Flush(); err != nil {
		t.Fatal(err)
	}
	if v, _ := waitVersion(t, reader, followed.ID(), seen, 100*time.Millisecond); v != seen {
		t.Error("a commit to another session counted as a change of the watched one")
	}
	reader.Unwatch(followed.ID())
	if v, _ := reader.WatchVersion(followed.ID()); v != 0 {
		t.Errorf("an unwatched session's count is %d, want 0", v)
	}
	if err := reader.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := reader.WatchVersion(followed.ID()); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("after Close: %v, want ErrStoreClosed", err)
	}
	if _, err := reader.Watch(followed.ID()); !errors.Is(err, session.ErrStoreClosed) {
		t.Errorf("Watch after Close: %v, want ErrStoreClosed", err)
	}
}
