package sqlite

import (
	"crypto/sha256"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/schema"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// TestSessionManagementMigrationUpgradesExistingSessions writes a session the way the
// first schema stored it, then opens the file with every migration: the new listing
// columns are filled in from what is stored, and old messages are searchable.
func TestSessionManagementMigrationUpgradesExistingSessions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db := rawDB(t, path)
	exec(t, db, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
	for _, stmt := range schema.Statements(1) {
		exec(t, db, stmt)
	}
	exec(t, db, `INSERT INTO schema_migrations VALUES (1, 'first', 0)`)
	big := []byte(`{"type":"tool_result","tool_use_id":"toolu_1","content":"` + strings.Repeat("y ", BlobThreshold) + `bigmarker","is_error":false}`)
	hash := sha256.Sum256(big)
	for _, stmt := range []string{
		`INSERT INTO sessions(sid, id, project_path, created_at, updated_at, message_count) VALUES (1, 'old-session', '/old', 1000, 5000, 3)`,
		`INSERT INTO messages(sid, seq, uuid, type, role, turn, status, created_at) VALUES
			(1, 0, 'u0', 'user', 'user', 0, 'complete', 1000),
			(1, 1, 'u1', 'assistant', 'assistant', 0, 'complete', 2000),
			(1, 2, 'u2', 'tool_result', 'user', 0, 'complete', 3000)`,
		`INSERT INTO blocks(sid, seq, idx, body) VALUES
			(1, 0, 0, '{"type":"text","text":"find the oldmarker please"}'),
			(1, 1, 0, '{"type":"tool_use","id":"toolu_1","name":"bash","input":{"command":"lsmarker"}}')`,
		`INSERT INTO tool_uses VALUES (1, 'toolu_1', 1)`,
	} {
		exec(t, db, stmt)
	}
	exec(t, db, `INSERT INTO blobs(id, hash, size, data) VALUES (1, ?, ?, ?)`, hash[:], len(big), big)
	exec(t, db, `INSERT INTO blocks(sid, seq, idx, blob_id) VALUES (1, 2, 0, 1)`)

	s := openAt(t, path)
	list, err := s.ListSessions(catalog.ListFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("listing: %+v, %v", list, err)
	}
	info := list[0]
	if info.ToolCount != 1 || info.LastMessageAt.UnixMilli() != 3000 || info.LastAccessedAt.UnixMilli() != 5000 || info.Status != session.StatusActive {
		t.Errorf("upgraded listing: %+v", info)
	}
	for _, word := range []string{"oldmarker", "bigmarker", "lsmarker"} {
		hits, err := s.Search(catalog.SearchQuery{Text: word, Limit: 10})
		if err != nil || len(hits) != 1 || hits[0].SessionID != "old-session" {
			t.Errorf("search %q after the upgrade: %+v, %v", word, hits, err)
		}
	}
	exec(t, db, `INSERT INTO message_search(message_search) VALUES ('integrity-check')`)
}

// TestSearchIndexStaysConsistent streams text (partial checkpoints replaced in place),
// completes it, stores a blob, deletes a session, and has FTS5 check its index against
// the blocks after each step.
func TestSearchIndexStaysConsistent(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	check := func(step string) {
		t.Helper()
		indexed(t, s)
		if _, err := db.Exec(`INSERT INTO message_search(message_search, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Fatalf("after %s: %v", step, err)
		}
	}
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{})
	b := mustCreate(t, m, session.CreateOptions{})
	for _, sess := range []*session.Session{a, b} {
		if _, err := sess.AppendUserMessage([]byte(`"hello index"`)); err != nil {
			t.Fatal(err)
		}
		mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "streaming "})
		if err := sess.Flush(); err != nil { // a partial checkpoint
			t.Fatal(err)
		}
		mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "words"})
		if err := sess.Flush(); err != nil { // replaced by a longer one
			t.Fatal(err)
		}
		check("partial checkpoints")
		mustIngest(t, sess,
			stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_" + sess.ID(), Name: "cat", JSON: []byte(`{}`)},
			stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "toolu_" + sess.ID(), JSON: []byte(`"` + strings.Repeat("z ", BlobThreshold) + `"`)},
			stream.Chunk{Kind: stream.ChunkDone},
		)
		check("completing")
	}
	if err := catalog.Delete(m, a.ID()); err != nil {
		t.Fatal(err)
	}
	check("deleting a session")
	hits, err := s.Search(catalog.SearchQuery{Text: "streaming words", Limit: 10})
	if err != nil || len(hits) != 1 || hits[0].SessionID != b.ID() {
		t.Errorf("search after the delete: %+v, %v", hits, err)
	}
}
