package sqlite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// copyV9Store makes a store from testdata/v9.sql, the `sqlite3 .dump` of a store written by
// the code before migration 10 (testdata/v9store), in a temporary folder, and returns its
// path and the messages its sessions held when it was written. The dump, not the file, is
// kept: text a reviewer can read, which the SQLite shell made from the old code's file.
func copyV9Store(t *testing.T) (string, map[string]json.RawMessage) {
	t.Helper()
	path, db := storeFromDump(t, "v9.sql")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "v9-messages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// sameJSON reports whether a and b are the same JSON value: bodies hold non-ASCII
// characters escaped, which the old rows did not.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// TestMigrationFromV9: a store written by the code before migration 10 opens with every
// message as it was, no block or blob row left for a completed message, and its search,
// listing and forks working.
func TestMigrationFromV9(t *testing.T) {
	path, want := copyV9Store(t)
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blobs`); n == 0 {
		t.Fatal("the v9 store has no blobs: it does not test filling holes")
	}
	s := openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations WHERE version = 10`); n != 1 {
		t.Fatal("migration 10 is not recorded")
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks`) + queryInt(t, db, `SELECT COUNT(*) FROM blobs`); n != 0 {
		t.Errorf("%d block and blob rows left, want 0: every message of the store has a body", n)
	}
	m := session.NewManager(s)
	for id, messages := range want {
		sess, err := m.Open(id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sess.Messages(false)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, messages) {
			t.Errorf("session %s after the migration:\n%s\nwant\n%s", id, got, messages)
		}
		var blocks int
		for _, msg := range scan(t, s, id) {
			blocks += len(msg.Blocks)
		}
		if wantBlocks := strings.Count(string(messages), `"type"`); blocks != wantBlocks {
			t.Errorf("session %s: ScanMessages gives %d blocks, want %d", id, blocks, wantBlocks)
		}
		sess.Close()
	}
	for word, hits := range map[string]int{"zeppelin": 1, "dirigible": 3, "quokka": 1} {
		if n := searchCount(t, s, word); n != hits {
			t.Errorf("search %q after the migration: %d hits, want %d", word, n, hits)
		}
	}
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("listing after the migration: %d sessions, %v", len(list), err)
	}
	for _, info := range list {
		var msgs []json.RawMessage
		json.Unmarshal(want[info.ID], &msgs)
		if info.MessageCount != int64(len(msgs)) {
			t.Errorf("session %s listed with %d messages, want %d", info.ID, info.MessageCount, len(msgs))
		}
	}
	var alpha string
	for id, messages := range want {
		if strings.Contains(string(messages), "zeppelin") {
			alpha = id
		}
	}
	origin, err := m.Open(alpha)
	if err != nil {
		t.Fatal(err)
	}
	fork, err := branches.Fork(origin, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := fork.Messages(false)
	if err != nil || !sameJSON(t, got, want[alpha]) {
		t.Errorf("the fork of a migrated session: %v\n%s", err, got)
	}
	indexed(t, s)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'zeppelin'`); n != 2 {
		t.Errorf("the index after forking: %d matches, want 2 (origin and fork)", n)
	}
}

// TestMigrationFailureLeavesTheStoreAsItWas: a migration that fails part way (here the
// last statement, after bodies were rewritten and block rows deleted) rolls back whole:
// the store is still at version 9 with every row, and opens and migrates once the cause
// is gone. A crash at the same point leaves the same file, since it is one transaction.
func TestMigrationFailureLeavesTheStoreAsItWas(t *testing.T) {
	path, want := copyV9Store(t)
	db := rawDB(t, path)
	blocks, blobs := queryInt(t, db, `SELECT COUNT(*) FROM blocks`), queryInt(t, db, `SELECT COUNT(*) FROM blobs`)
	exec(t, db, `CREATE TRIGGER fail_midway BEFORE DELETE ON blobs BEGIN SELECT RAISE(ABORT, 'failed midway'); END`)
	if s, err := Open(path); err == nil {
		s.Close()
		t.Fatal("the migration succeeded through a failing statement")
	}
	if n := queryInt(t, db, `SELECT MAX(version) FROM schema_migrations`); n != 9 {
		t.Errorf("schema version %d after a failed migration, want 9", n)
	}
	if b, bl := queryInt(t, db, `SELECT COUNT(*) FROM blocks`), queryInt(t, db, `SELECT COUNT(*) FROM blobs`); b != blocks || bl != blobs {
		t.Errorf("%d blocks and %d blobs after a failed migration, want %d and %d", b, bl, blocks, blobs)
	}
	exec(t, db, `DROP TRIGGER fail_midway`)
	s := openAt(t, path)
	id := firstKey(want)
	sess, err := session.NewManager(s).Open(id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sess.Messages(false)
	if err != nil || !sameJSON(t, got, want[id]) {
		t.Errorf("after the retried migration: %v\n%s", err, got)
	}
}

// firstKey returns a key of m; which one varies from call to call.
func firstKey(m map[string]json.RawMessage) string {
	for k := range m {
		return k
	}
	return ""
}
