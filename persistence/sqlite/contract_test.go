package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// TestStoreContract runs the contract every backend keeps, with a Store per process on one
// file. (An external test: sessiontest opens SQLite stores itself.)
func TestStoreContract(t *testing.T) {
	sessiontest.StoreContract(t, sessiontest.Backend{
		Fresh: func(t *testing.T) string { return filepath.Join(t.TempDir(), "sessions.db") },
		Open: func(t *testing.T, path string) session.Store {
			s, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	})
}
