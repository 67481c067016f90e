package rawdb_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	_ "modernc.org/sqlite"
)

// fixture writes a database through the driver and opens it with rawdb.
func fixture(t *testing.T, stmts ...string) *rawdb.Conn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	c, err := rawdb.Open(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A statement used again with the same, then other, then the same parameters returns each
// use's rows: the bindings it skips are the ones it holds.
func TestStatementsKeepOrChangeTheirBindings(t *testing.T) {
	c := fixture(t, `CREATE TABLE t (k TEXT, n INTEGER, UNIQUE (k, n))`,
		`INSERT INTO t VALUES ('a', 1), ('a', 2), ('a', 3), ('b', 1), ('b', 5)`)
	uses := []struct {
		k    string
		from int64
		want []int64
	}{{"a", 2, []int64{2, 3}}, {"a", 2, []int64{2, 3}}, {"b", 2, []int64{5}}, {"b", 0, []int64{1, 5}}, {"a", 2, []int64{2, 3}}, {"a", 9, nil}}
	for _, u := range uses {
		st, err := c.Prepare(`SELECT n FROM t WHERE k = ? AND n >= ? ORDER BY n`)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.BindText(1, u.k); err != nil {
			t.Fatal(err)
		}
		if err := st.BindInt64(2, u.from); err != nil {
			t.Fatal(err)
		}
		var got []int64
		for {
			more, err := st.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !more {
				break
			}
			got = append(got, st.Int64(0))
		}
		st.Reset()
		if !slices.Equal(got, u.want) {
			t.Errorf("k=%s n>=%d: %v, want %v", u.k, u.from, got, u.want)
		}
	}
}

// Bytes tells NULL (nil) from an empty value (empty, not nil), and Type names each type.
func TestColumnTypesAndBytes(t *testing.T) {
	c := fixture(t, `CREATE TABLE t (v)`, `INSERT INTO t VALUES (NULL), (''), (X''), ('é'), (X'00FF'), (7), (1.5)`)
	st, err := c.Prepare(`SELECT v FROM t ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	want := []struct {
		typ   int
		bytes []byte
	}{{rawdb.Null, nil}, {rawdb.Text, []byte{}}, {rawdb.Blob, []byte{}}, {rawdb.Text, []byte("é")}, {rawdb.Blob, []byte{0, 0xff}}, {rawdb.Integer, nil}, {rawdb.Float, nil}}
	for i, w := range want {
		if more, err := st.Step(); !more || err != nil {
			t.Fatalf("row %d: %v %v", i, more, err)
		}
		if got := st.Type(0); got != w.typ {
			t.Errorf("row %d: type %d, want %d", i, got, w.typ)
		}
		if w.typ == rawdb.Integer || w.typ == rawdb.Float {
			continue
		}
		if got := st.Bytes(0); (got == nil) != (w.bytes == nil) || string(got) != string(w.bytes) {
			t.Errorf("row %d: bytes %#v, want %#v", i, got, w.bytes)
		}
	}
	if got := st.Float64(0); got != 1.5 {
		t.Errorf("last row: %v, want 1.5", got)
	}
}

// A connection is read-only: a write fails with SQLITE_READONLY, in an Error with its code.
func TestWritesAreRefused(t *testing.T) {
	c := fixture(t, `CREATE TABLE t (v)`)
	st, err := c.Prepare(`INSERT INTO t VALUES (1)`)
	if err == nil {
		_, err = st.Step()
		st.Reset()
	}
	var e *rawdb.Error
	if !errors.As(err, &e) || e.Code()&0xff != 8 { // SQLITE_READONLY
		t.Fatalf("a write: %v, want SQLITE_READONLY", err)
	}
}

// Opening a file that does not exist fails with SQLITE_CANTOPEN: a read-only connection
// does not create it.
func TestOpenDoesNotCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	c, err := rawdb.Open(path, 100)
	if err == nil {
		c.Close()
	}
	var e *rawdb.Error
	if !errors.As(err, &e) || e.Code()&0xff != 14 { // SQLITE_CANTOPEN
		t.Fatalf("opening a missing file: %v, want SQLITE_CANTOPEN", err)
	}
	if _, statErr := os.Stat(path); statErr == nil {
		t.Error("the missing file was created")
	}
}
