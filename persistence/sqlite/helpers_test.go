package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"modernc.org/sqlite"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// openTemp opens a store on a new file in t.TempDir(); it is closed at cleanup.
func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sessions.db")
	return openAt(t, path), path
}

func openAt(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rawDB opens the file through database/sql, beside the store, for checks the Store
// interface cannot make.
// init gives the connections rawDB opens unpack_body and searched_text, as the store's own
// have them, so that a test can look inside a packed body, or delete a message, in SQL.
func init() {
	for name, fn := range sqlconn.Functions() {
		sqlite.MustRegisterDeterministicScalarFunction(name, 1, fn)
	}
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryInt(t *testing.T, db *sql.DB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// storeFromDump makes a store in a temporary folder from testdata/<dump>, the `sqlite3 .dump`
// of a store written by older code, and returns its path and a raw connection to it.
func storeFromDump(t *testing.T, dump string) (string, *sql.DB) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", dump))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	db := rawDB(t, path)
	exec(t, db, string(text))
	return path, db
}

func exec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// scan returns a session's messages, copied out of the scan callback.
func scan(t *testing.T, s *Store, id string) []session.StoredMessage {
	t.Helper()
	var out []session.StoredMessage
	err := s.ScanMessages(id, func(m *session.StoredMessage) error {
		c := *m
		c.Blocks = nil
		for _, b := range m.Blocks {
			c.Blocks = append(c.Blocks, append([]byte(nil), b...))
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		t.Fatalf("ScanMessages(%s): %v", id, err)
	}
	return out
}

func mustCreate(t *testing.T, m *session.Manager, opts session.CreateOptions) *session.Session {
	t.Helper()
	s, err := m.Create(opts)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return s
}

func mustIngest(t *testing.T, s *session.Session, chunks ...stream.Chunk) {
	t.Helper()
	for i, c := range chunks {
		if err := s.Ingest(c); err != nil {
			t.Fatalf("Ingest chunk %d (%s): %v", i, c.Kind, err)
		}
	}
}

// indexed waits until every block committed so far is in the search index, as a search
// does before it queries.
func indexed(t *testing.T, s *Store) {
	t.Helper()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.w.catchUpIndex(); err != nil {
		t.Fatal(err)
	}
}
