package postgres

import (
	"context"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// pathText is a message whose words a path joins.
const pathText = "see src/auth.go:42 now"

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

// TestVectorsHoldTheWordsSQLiteIndexes indexes a message with a path in it: its vector holds
// the path's words, as SQLite's FTS5 (unicode61) indexes them, and not the path as one lexeme.
func TestVectorsHoldTheWordsSQLiteIndexes(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	writeSession(t, session.NewManager(store), pathText)
	if err := store.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	var vector string
	if err := connectAt(t, url).QueryRow(context.Background(), `SELECT search::text FROM messages`).Scan(&vector); err != nil {
		t.Fatal(err)
	}
	if want := `'42' 'auth' 'go' 'now' 'see' 'src'`; vector != want {
		t.Errorf("the vector of %q is %s, want %s", pathText, vector, want)
	}
}

// TestSearchFindsVectorsOfMigrationTwo gives a message the vector migration 2 defined (the
// parser's lexemes, "src/auth.go" whole among them, and the words): what a store indexed
// before keeps. A search finds it as it finds a vector of words only, and no more.
func TestSearchFindsVectorsOfMigrationTwo(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	m := session.NewManager(store)
	writeSession(t, m, pathText)
	if err := store.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	tag, err := connectAt(t, url).Exec(context.Background(), `UPDATE messages SET search = strip(to_tsvector('simple', $1::text)
		|| to_tsvector('simple', regexp_replace($1::text, '[^[:alnum:]]+', ' ', 'g')))`, pathText)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("giving the message migration 2's vector: %v, %d rows", err, tag.RowsAffected())
	}
	for text, want := range map[string]int{"src/auth.go:42": 1, "src/auth": 1, "auth.go": 1, "auth": 1, "42 src": 1,
		"src/other.go": 0, "uth": 0, "auth.gone": 0} {
		if got := countHits(t, m, text); got != want {
			t.Errorf("search %q: %d hits, want %d", text, got, want)
		}
	}
}
