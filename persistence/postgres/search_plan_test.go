package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestSearchReadsOnlyTheHitsSessions: in a store of 20,000 sessions of a message each, the search statement
// reads the sessions of its hits by key, with a project or without; it never scans the
// sessions table, which made a search grow with the store (the planner guesses thousands of
// hits for a prefix and hashed every session). It still finds the one message with the word.
func TestSearchReadsOnlyTheHitsSessions(t *testing.T) {
	url, store, first, _ := twoSessions(t)
	if _, err := first.AppendUserMessage([]byte(`"a puffin on the cliff"`)); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := connectAt(t, url)
	if _, err := c.Exec(ctx, `INSERT INTO sessions(id, created_at, updated_at, project_path)
		SELECT 'many-' || g, 0, 0, '/p' || (g % 20) FROM generate_series(1, 20000) g`); err != nil {
		t.Fatal(err)
	}
	// Messages whose vectors make the planner's guess for a prefix what it is in a real store.
	if _, err := c.Exec(ctx, `INSERT INTO messages(sid, seq, uuid, type, role, turn, status, created_at, search)
		SELECT s.sid, 0, 'm-' || s.sid, 'user', 'user', 0, 'complete', 0,
			to_tsvector('simple', 'the store message agent tool ' || s.sid)
		FROM sessions s WHERE s.id LIKE 'many-%'`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `ANALYZE sessions; ANALYZE messages`); err != nil {
		t.Fatal(err)
	}
	hits, err := store.Search(catalog.SearchQuery{Text: "puff", Limit: 10})
	if err != nil || len(hits) != 1 || hits[0].SessionID != first.ID() {
		t.Fatalf("search puff: %+v, %v; want the one message of session %s", hits, err, first.ID())
	}
	for _, q := range []catalog.SearchQuery{{Text: "puff", Limit: 10}, {Text: "puff", Limit: 10, ProjectPath: "/p3"}} {
		query, args := searchStatement(q)
		rows, err := c.Query(ctx, `EXPLAIN `+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		if strings.Contains(text, "Seq Scan on sessions") || strings.Contains(text, "Bitmap Heap Scan on sessions") {
			t.Errorf("the search statement (project %q) scans sessions:\n%s", q.ProjectPath, text)
		}
	}
}
