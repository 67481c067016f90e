package sqlite

import (
	"bytes"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// TestMigrationFromV10: a store written by the code before packing (testdata/v10.sql, the
// dump of testdata/v10store's store, made by main at 83a4f15) opens with its bodies plain
// and searchable through the view migration 11 rebuilt, takes new large bodies packed
// beside them, and keeps its search index consistent with both through a delete.
func TestMigrationFromV10(t *testing.T) {
	const large = 1024 // an import's bodies were packed over this size in round 5
	path, db := storeFromDump(t, "v10.sql")
	old := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE length(body) > ?`, large)
	if old != 1 {
		t.Fatalf("the v10 store has %d bodies over %d bytes, want 1: it does not test reading a large plain body", old, large)
	}
	s := openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations WHERE version = 11`); n != 1 {
		t.Fatal("migration 11 is not recorded")
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE substr(body, 1, 1) = x'00'`); n != 0 {
		t.Errorf("%d old bodies packed by the migration, want 0: they stay as they are", n)
	}
	for word, hits := range map[string]int{"okapi": 1, "narwhal": 1} {
		if n := searchCount(t, s, word); n != hits {
			t.Errorf("search %q after the migration: %d hits, want %d", word, n, hits)
		}
	}
	var id string
	if err := db.QueryRow(`SELECT id FROM sessions`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range scan(t, s, id) {
		for _, b := range m.Blocks {
			found = found || bytes.Contains(b, []byte("okapi"))
		}
	}
	if !found {
		t.Error("the old large body does not read back with its text")
	}

	s.Apply(begin(id, 10),
		session.PutBlock{SessionID: id, Seq: 10, Index: 0, JSON: toolOutput(3*bodycodec.LivePackAbove, "pangolin")},
		end(id, 10))
	indexed(t, s)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE substr(body, 1, 1) = x'00'`); n != 1 {
		t.Errorf("%d packed bodies after a large message, want 1", n)
	}
	if n := searchCount(t, s, "pangolin"); n != 1 {
		t.Errorf("search for a word of the new packed body: %d hits, want 1", n)
	}
	exec(t, db, `INSERT INTO body_search(body_search) VALUES ('integrity-check')`)
	s.Apply(session.DeleteSession{SessionID: id})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	exec(t, db, `INSERT INTO body_search(body_search) VALUES ('integrity-check')`)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'okapi OR pangolin'`); n != 0 {
		t.Errorf("%d bodies of the deleted session still indexed", n)
	}
}
