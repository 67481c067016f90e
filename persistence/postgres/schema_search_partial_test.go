package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// storeBeforeMigration5 makes, at url, a store with messages, then puts its schema back as
// migration 4 left it: the search index over every message, migration 5 not applied. It
// returns a connection of its own to the store.
func storeBeforeMigration5(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	store := openAt(t, url)
	s := newSession(t, session.NewManager(store), "heron one", "heron two", "egret three")
	if err := store.IndexForSearch(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	store.Close()
	c := connectAt(t, url)
	for _, stmt := range []string{
		`DROP INDEX messages_search_indexed`,
		`CREATE INDEX messages_search ON messages USING GIN (search)`,
		`DELETE FROM background_migrations WHERE name = 'search index of indexed messages'`,
		`ALTER TABLE background_migrations DROP COLUMN claimed_until`,
		`DELETE FROM schema_version WHERE version = 5`,
	} {
		if _, err := c.Exec(context.Background(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return c
}

// TestSearchReadsThePartialIndex opens a store as migration 4 left it, with messages in it:
// the open builds the index of the messages that have a vector and drops the index of them
// all, Search still finds what it found, and its statement reads the new index (a predicate
// the planner could not prove from `search @@ query` would leave it a scan of every message).
func TestSearchReadsThePartialIndex(t *testing.T) {
	url := freshURL(t)
	c := storeBeforeMigration5(t, url)
	store := openAt(t, url)
	if got := searchIndexes(t, c); got != "messages_search_indexed WHERE (search IS NOT NULL), valid" {
		t.Errorf("search indexes after the open: %q, want only messages_search_indexed, whole, of the messages with a vector", got)
	}
	if !narrowingDone(t, c) {
		t.Error("the narrowing of the search index is not recorded done")
	}
	hits, err := store.Search(catalog.SearchQuery{Text: "heron"})
	if err != nil || len(hits) != 2 {
		t.Fatalf("Search(heron) = %d hits, %v; want the 2 messages", len(hits), err)
	}

	ctx := context.Background()
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
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "messages_search_indexed") {
		t.Errorf("Search's statement does not read messages_search_indexed:\n%s", text)
	}
}

// TestAnOpenLeavesAnotherHostsBuildOfTheSearchIndexToIt holds a build of the new index
// waiting (another connection's transaction is older than it, which CONCURRENTLY waits for),
// then opens the store: the open does not wait for the build nor drop the index it reads
// meanwhile. A build cancelled half way leaves the index invalid; the next open makes it again.
func TestAnOpenLeavesAnotherHostsBuildOfTheSearchIndexToIt(t *testing.T) {
	url := freshURL(t)
	c := storeBeforeMigration5(t, url)
	ctx := context.Background()
	older := connectAt(t, url)
	tx, err := older.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE messages IN ROW EXCLUSIVE MODE`); err != nil { // as a writer's
		t.Fatal(err)
	}
	builder := connectAt(t, url)
	if _, err := builder.Exec(ctx, `SET statement_timeout = '3s'`); err != nil {
		t.Fatal(err)
	}
	built := make(chan error, 1)
	go func() {
		_, err := builder.Exec(ctx, `CREATE INDEX CONCURRENTLY messages_search_indexed ON messages USING GIN (search) WHERE search IS NOT NULL`)
		built <- err
	}()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, building, err := narrowIndexState(ctx, pool); err != nil || building {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other host's build never started")
		}
	}

	opened := make(chan *Store, 1)
	go func() {
		store, err := Open(url)
		if err != nil {
			t.Error(err)
		}
		opened <- store
	}()
	select {
	case store := <-opened:
		if store != nil {
			store.Close()
		}
	case <-time.After(2 * time.Second):
		tx.Rollback(ctx) // the open waits for what the build waits for: let both end
		if store := <-opened; store != nil {
			store.Close()
		}
		t.Fatal("the open waited for the other host's build of the search index")
	}
	if got := searchIndexes(t, c); !strings.Contains(got, "messages_search, valid") {
		t.Errorf("search indexes while another host builds: %q, want messages_search kept", got)
	}
	if err := <-built; err == nil {
		t.Fatal("the build waiting for an older transaction was not cancelled by its statement_timeout")
	}
	tx.Rollback(ctx)
	if got := searchIndexes(t, c); !strings.Contains(got, "messages_search_indexed WHERE (search IS NOT NULL), invalid") {
		t.Fatalf("search indexes after the cancelled build: %q, want its invalid index left", got)
	}

	openAt(t, url)
	if got := searchIndexes(t, c); got != "messages_search_indexed WHERE (search IS NOT NULL), valid" {
		t.Errorf("search indexes after the next open: %q, want only messages_search_indexed, whole", got)
	}
	if !narrowingDone(t, c) {
		t.Error("the narrowing of the search index is not recorded done")
	}
}

// searchIndexes describes the GIN indexes of messages: name, predicate and validity each,
// in name order, "; " between them.
func searchIndexes(t *testing.T, c *pgx.Conn) string {
	t.Helper()
	rows, err := c.Query(context.Background(), `SELECT cl.relname || coalesce(' WHERE ' || pg_get_expr(i.indpred, i.indrelid), '')
			|| CASE WHEN i.indisvalid THEN ', valid' ELSE ', invalid' END
		FROM pg_index i JOIN pg_class cl ON cl.oid = i.indexrelid JOIN pg_am am ON am.oid = cl.relam
		WHERE i.indrelid = to_regclass('messages') AND am.amname = 'gin' ORDER BY cl.relname`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(names, "; ")
}

// narrowingDone reports whether the store records the search index narrowed.
func narrowingDone(t *testing.T, c *pgx.Conn) bool {
	t.Helper()
	var done bool
	err := c.QueryRow(context.Background(),
		`SELECT done_at IS NOT NULL FROM background_migrations WHERE name = 'search index of indexed messages'`).Scan(&done)
	if err != nil {
		t.Fatal(err)
	}
	return done
}
