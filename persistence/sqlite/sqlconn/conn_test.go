package sqlconn

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/session"
)

// open opens a connection to the file at path and closes it when the test ends.
func open(t *testing.T, path string) *Conn {
	t.Helper()
	c, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// one returns the one value of query's one row, a copy that outlives the call.
func one(t *testing.T, c *Conn, query string, args ...any) driver.Value {
	t.Helper()
	var v driver.Value
	if err := c.Query(query, args, func(row []driver.Value) error {
		if b, ok := row[0].([]byte); ok {
			row[0] = bytes.Clone(b)
		}
		v = row[0]
		return nil
	}); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return v
}

// TestAConnectionIsInWALWithTheSchemasFunctions: a connection puts its file in WAL mode and
// has unpack_body and searched_text, which the schema's views call.
func TestAConnectionIsInWALWithTheSchemasFunctions(t *testing.T) {
	c := open(t, filepath.Join(t.TempDir(), "s.db"))
	if mode := one(t, c, "PRAGMA journal_mode"); mode != "wal" {
		t.Fatalf("journal_mode %v, want wal", mode)
	}
	body := []byte(`{"message":{"content":[{"type":"text","text":"` + strings.Repeat("ocelot ", 400) + `"}]}}`)
	packed := bodycodec.Pack(nil, body, 1)
	if !bodycodec.IsPacked(packed) {
		t.Fatal("the body was not packed: the test proves nothing")
	}
	if got := rowvalue.Bytes(one(t, c, "SELECT unpack_body(?)", packed)); !bytes.Equal(got, body) {
		t.Fatalf("unpack_body gave %.40q, want the body", got)
	}
	if got := one(t, c, "SELECT unpack_body(NULL)"); got != nil {
		t.Fatalf("unpack_body(NULL) = %v, want NULL", got)
	}
	if got, _ := one(t, c, "SELECT searched_text(?)", body).(string); !strings.HasPrefix(got, "ocelot ocelot") {
		t.Fatalf("searched_text gave %.40q", got)
	}
	if got := one(t, c, "SELECT searched_text(?)", []byte(`{"message":{"content":[]}}`)); got != nil {
		t.Fatalf("searched_text of a body without text = %v, want NULL", got)
	}
}

// TestWrapSaysWhatAnErrorMeans: a file that is not a database is ErrCorrupt, a lock held by
// another connection past the busy timeout ErrBusy, a constraint violation ErrStorage that
// IsConstraint tells apart, and an error that already says what it means is kept as it is.
func TestWrapSaysWhatAnErrorMeans(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database\n"), 300), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := Open(garbage); err == nil {
		_, err = c.Exec("CREATE TABLE t(x)")
		c.Close()
		if err = Wrap("writing", err); !errors.Is(err, session.ErrCorrupt) {
			t.Fatalf("writing to a text file: %v, want ErrCorrupt", err)
		}
	} else if !errors.Is(err, session.ErrCorrupt) {
		t.Fatalf("opening a text file: %v, want ErrCorrupt", err)
	}

	path := filepath.Join(dir, "s.db")
	holder, waiter := open(t, path), open(t, path)
	for _, stmt := range []string{"CREATE TABLE t(x PRIMARY KEY)", "INSERT INTO t VALUES (1)", "BEGIN IMMEDIATE"} {
		if _, err := holder.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	_, err := waiter.Exec("BEGIN IMMEDIATE")
	if err = Wrap("beginning", err); !errors.Is(err, session.ErrBusy) || !strings.Contains(err.Error(), "beginning") {
		t.Fatalf("beginning beside a held lock: %v, want ErrBusy naming the operation", err)
	}
	_, err = holder.Exec("INSERT INTO t VALUES (1)")
	if !IsConstraint(err) || !errors.Is(Wrap("inserting", err), session.ErrStorage) {
		t.Fatalf("a duplicate key: %v, want a constraint violation wrapped as ErrStorage", err)
	}
	if IsConstraint(errors.New("no SQLite error")) {
		t.Fatal("an error that is not SQLite's is a constraint violation")
	}
	said := session.ErrSessionNotFound
	if err := Wrap("reading", said); err != said {
		t.Fatalf("Wrap changed an error that says what it means: %v", err)
	}
	if Wrap("nothing", nil) != nil {
		t.Fatal("Wrap of no error is an error")
	}
}
