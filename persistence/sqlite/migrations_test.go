package sqlite

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestMigrationsAreRecordedOnce(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	newest := migrations[len(migrations)-1].version
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations)) {
		t.Fatalf("%d migrations recorded, want %d", n, len(migrations))
	}
	if v := queryInt(t, db, `SELECT MAX(version) FROM schema_migrations`); v != newest {
		t.Fatalf("schema version %d, want %d", v, newest)
	}
	for _, table := range []string{"sessions", "messages", "blocks", "blobs", "tool_uses"} {
		if n := queryInt(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table); n != 1 {
			t.Errorf("table %s missing", table)
		}
	}
	applied := queryInt(t, db, `SELECT applied_at FROM schema_migrations WHERE version = 1`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopening finds the schema current: nothing is applied (or recorded) again.
	openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations)) {
		t.Fatalf("%d migrations recorded after reopen, want %d", n, len(migrations))
	}
	if again := queryInt(t, db, `SELECT applied_at FROM schema_migrations WHERE version = 1`); again != applied {
		t.Fatalf("migration 1 re-applied: applied_at %d -> %d", applied, again)
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	s, path := openTemp(t)
	s.Close()
	db := rawDB(t, path)
	future := migrations[len(migrations)-1].version + 1
	exec(t, db, `INSERT INTO schema_migrations(version, description, applied_at) VALUES (?, 'from the future', 0)`, future)

	_, err := Open(path)
	if !errors.Is(err, session.ErrStorage) {
		t.Fatalf("Open of a newer schema: err = %v, want ErrStorage", err)
	}
	if !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("error %q does not say what to do", err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != int64(len(migrations))+1 {
		t.Errorf("the refused database was changed: %d migrations recorded", n)
	}
}

func TestNotADatabaseIsCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	garbage := bytes.Repeat([]byte("this is not a SQLite database, just some notes.\n"), 200)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		s.Close()
		t.Fatal("Open of a text file succeeded")
	}
	if !errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("err = %v, want ErrCorrupt", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, garbage) {
		t.Errorf("Open changed the file it refused")
	}
}

func TestFileAndDirectoryAreOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "sessions.db")
	s := openAt(t, path)
	m := session.NewManager(s)
	mustCreate(t, m, session.CreateOptions{})
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("stat %s: %v", p, err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s has mode %o, want 600", filepath.Base(p), mode)
		}
	}
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if mode := fi.Mode().Perm(); mode != 0o700 {
		t.Errorf("created directory has mode %o, want 700", mode)
	}
}
