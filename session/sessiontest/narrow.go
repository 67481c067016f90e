package sessiontest

import (
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
)

// sessionStoreOnly shows a real store as no more than a session.Store.
type sessionStoreOnly struct{ session.Store }

// NarrowManager returns a Manager over a real store in t.TempDir() that shows it as no more
// than a session.Store, as a backend without the stores of the packages beside session
// (snapshots.Store, hosted.Store) would be: the one failure of theirs no real store can
// cause. The Manager is closed at cleanup.
func NarrowManager(t testing.TB) *session.Manager {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "sessions.db"))
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	m := session.NewManager(sessionStoreOnly{st})
	t.Cleanup(func() { m.Close() })
	return m
}
