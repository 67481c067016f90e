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

// TestNewerSchemaIsRefused: a store whose file records a migration this build does not
// know is not opened, and the file is left as it was.
func TestNewerSchemaIsRefused(t *testing.T) {
	s, path := openTemp(t)
	s.Close()
	db := rawDB(t, path)
	future := queryInt(t, db, `SELECT MAX(version) FROM schema_migrations`) + 1
	recorded := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`)
	exec(t, db, `INSERT INTO schema_migrations(version, description, applied_at) VALUES (?, 'from the future', 0)`, future)

	_, err := Open(path)
	if !errors.Is(err, session.ErrStorage) {
		t.Fatalf("Open of a newer schema: err = %v, want ErrStorage", err)
	}
	if !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("error %q does not say what to do", err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations`); n != recorded+1 {
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
