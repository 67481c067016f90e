package sqlite

import (
	"database/sql"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// TestSearchIndexConsistentWithBodies: FTS5's own integrity check, which compares the index
// with the text the view gives now, passes after bodies of every kind (packed, escaped,
// tool calls) are indexed, and again after some are deleted through the index's trigger.
func TestSearchIndexConsistentWithBodies(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	for i, id := range []string{"s1", "s2"} {
		seq := int64(10 * i) // message uuids differ between the sessions: search gives each uuid once
		s.Apply(session.CreateSession{Info: newInfo(id)},
			begin(id, seq), session.PutBlock{SessionID: id, Seq: seq, Index: 0, JSON: []byte(`{"type":"text","text":"caf\u00e9 \u2192 llama"}`)}, end(id, seq),
			begin(id, seq+1), session.PutBlock{SessionID: id, Seq: seq + 1, Index: 0, JSON: []byte(`{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}`)}, end(id, seq+1),
			begin(id, seq+2), session.PutBlock{SessionID: id, Seq: seq + 2, Index: 0, JSON: resultOf("t1", toolOutput(3*bodycodec.LivePackAbove, "ocelot"))}, end(id, seq+2))
	}
	indexed(t, s)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE substr(body, 1, 1) = x'00'`); n != 2 {
		t.Fatalf("%d packed bodies, want 2", n)
	}
	checkSearchIndex(t, db)
	for word, want := range map[string]int{"llama": 2, "café": 2, "Bash": 2, "ocelot": 2} {
		if n := searchCount(t, s, word); n != want {
			t.Errorf("search %q: %d hits, want %d", word, n, want)
		}
	}
	s.Apply(session.DeleteSession{SessionID: "s1"})
	indexed(t, s)
	checkSearchIndex(t, db)
	if n := searchCount(t, s, "ocelot"); n != 1 {
		t.Errorf("search after a delete: %d hits, want 1", n)
	}
}

// TestMigrationToSearchedText: a store written before migration 13 (testdata/v10.sql) is
// re-indexed through searched_text: its old words are found and the index is consistent
// with the view.
func TestMigrationToSearchedText(t *testing.T) {
	path, db := storeFromDump(t, "v10.sql")
	s := openAt(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM schema_migrations WHERE version = 13`); n != 1 {
		t.Fatal("migration 13 is not recorded")
	}
	for _, word := range []string{"okapi", "narwhal"} {
		if n := searchCount(t, s, word); n != 1 {
			t.Errorf("search %q after the migration: %d hits, want 1", word, n)
		}
	}
	checkSearchIndex(t, db)
}

// checkSearchIndex runs FTS5's integrity check of body_search against its content view.
func checkSearchIndex(t *testing.T, db *sql.DB) {
	t.Helper()
	exec(t, db, `INSERT INTO body_search(body_search, rank) VALUES ('integrity-check', 1)`)
}

// resultOf is the JSON of a tool_result block answering id with one content block.
func resultOf(id string, block []byte) []byte {
	return []byte(`{"type":"tool_result","tool_use_id":"` + id + `","content":[` + string(block) + `]}`)
}
