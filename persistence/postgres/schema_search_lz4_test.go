package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// writeSession writes a session of texts to m, each a user message, and closes it once the
// store has them.
func writeSession(t *testing.T, m *session.Manager, texts ...string) {
	t.Helper()
	s := newSession(t, m, texts...)
	defer s.Close()
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
}

// longText is a user message of n different words, whose vector the server stores compressed
// (out of line) rather than in the row.
func longText(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("pelican%05d", i)
	}
	return strings.Join(words, " ")
}

// TestMigrationSevenCompressesVectorsWithLZ4 opens a store as migration 6 left it, its vectors
// left to pglz, the default: after migration 7 the vectors the indexer writes are lz4's,
// those stored before keep their form (pglz's, or none: pglz gives up on them), and a search
// finds both.
func TestMigrationSevenCompressesVectorsWithLZ4(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	c := connectAt(t, url)
	ctx := context.Background()
	var lz4 bool
	if err := c.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))`).Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	if !lz4 {
		t.Skip("this server is built without lz4")
	}
	for _, stmt := range []string{`ALTER TABLE messages ALTER COLUMN search SET COMPRESSION pglz`, `DELETE FROM schema_version WHERE version = 7`} {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	writeSession(t, session.NewManager(store), "before "+longText(800))
	if err := store.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	store.Close()

	store = openAt(t, url)
	m := session.NewManager(store)
	writeSession(t, m, "after "+longText(800))
	if err := store.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	var forms []string
	err := c.QueryRow(ctx, `SELECT array_agg(coalesce(pg_column_compression(search), 'none') ORDER BY sid)
		FROM messages`).Scan(&forms)
	if err != nil {
		t.Fatal(err)
	}
	if len(forms) != 2 || forms[0] == "lz4" || forms[1] != "lz4" {
		t.Errorf("the vectors' compression, before then after migration 7: %v; want pglz's or none, then lz4", forms)
	}
	for word, want := range map[string]int{"before": 1, "after": 1, "pelican00799": 2} {
		if got := countHits(t, m, word); got != want {
			t.Errorf("search %q: %d hits, want %d", word, got, want)
		}
	}
}
