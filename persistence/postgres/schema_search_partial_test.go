package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestSearchReadsThePartialIndex opens a store as migration 4 left it (the search index over
// every message) with messages in it: migration 5 makes the index leave out the messages
// without a vector, Search still finds what it found, and its statement reads the index (a
// predicate the planner could not prove from `search @@ query` would leave it a scan of every
// message).
func TestSearchReadsThePartialIndex(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	s := newSession(t, session.NewManager(store), "heron one", "heron two", "egret three")
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	store.Close()
	c := connectAt(t, url)
	ctx := context.Background()
	for _, stmt := range []string{
		`DROP INDEX messages_search`,
		`CREATE INDEX messages_search ON messages USING GIN (search)`,
		`DELETE FROM schema_version WHERE version = 5`,
	} {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if got := indexPredicate(t, c); got != "" {
		t.Fatalf("the store made as migration 4 left it has an index predicate %q", got)
	}

	store = openAt(t, url)
	if got := indexPredicate(t, c); got != "(search IS NOT NULL)" {
		t.Errorf("messages_search's predicate after the migration = %q, want (search IS NOT NULL)", got)
	}
	hits, err := store.Search(catalog.SearchQuery{Text: "heron"})
	if err != nil || len(hits) != 2 {
		t.Fatalf("Search(heron) = %d hits, %v; want the 2 messages", len(hits), err)
	}

	query, args := searchStatement(catalog.SearchQuery{Text: "heron", Limit: 20})
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	// On three rows a scan is cheaper: leave the planner only what an index's bitmap serves.
	if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query(ctx, `EXPLAIN `+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "messages_search") {
		t.Errorf("Search's statement does not read messages_search:\n%s", text)
	}
}

// indexPredicate is the WHERE of the index messages_search, "" for none.
func indexPredicate(t *testing.T, c *pgx.Conn) string {
	t.Helper()
	var predicate *string
	err := c.QueryRow(context.Background(),
		`SELECT pg_get_expr(indpred, indrelid) FROM pg_index WHERE indexrelid = 'messages_search'::regclass`).Scan(&predicate)
	if err != nil {
		t.Fatal(err)
	}
	if predicate == nil {
		return ""
	}
	return *predicate
}
