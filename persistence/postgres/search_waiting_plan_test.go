package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestTheMessagesWaitingAreReadThroughTheirIndex: with statistics taken while 20,000
// messages waited to be indexed, and none waiting now (as after a large fill that search
// has indexed), the planner alone scans the messages table for the ones waiting, a scan of
// every message before every search; indexSlice's statements read messages_unindexed. A
// search then still finds what it should.
func TestTheMessagesWaitingAreReadThroughTheirIndex(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	ctx := context.Background()
	c := connectAt(t, url)
	for _, sql := range []string{
		`ALTER TABLE messages SET (autovacuum_enabled = false)`,
		`INSERT INTO sessions(id, created_at, updated_at, project_path)
			SELECT 'many-' || g, 0, 0, '/p' || (g % 20) FROM generate_series(1, 20000) g`,
		`INSERT INTO messages(sid, seq, uuid, type, role, turn, status, created_at, search_text)
			SELECT s.sid, 0, 'm-' || s.sid, 'user', 'user', 0, 'complete', 0, 'a guillemot on the ledge ' || s.sid
			FROM sessions s WHERE s.id LIKE 'many-%'`,
		`ANALYZE messages`,
		`UPDATE messages SET search = to_tsvector('simple', search_text) WHERE search IS NULL`,
	} {
		if _, err := c.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	query, slice := waitingSliceSQL(true), []any{1024}
	if plan := planLines(t, store, query, slice); !strings.Contains(plan, "Seq Scan") {
		t.Fatalf("the planner alone reads the messages waiting through an index, so this test shows nothing:\n%s", plan)
	}
	if plan := planLines(t, store, query, slice, readWaitingByIndex); strings.Contains(plan, "Seq Scan") || !strings.Contains(plan, "messages_unindexed") {
		t.Errorf("indexSlice does not read the messages waiting through messages_unindexed:\n%s", plan)
	}
	if waiting := waitingMessages(t, store); waiting != 0 {
		t.Fatalf("%d messages wait, want none", waiting)
	}
	hits, err := store.Search(catalog.SearchQuery{Text: "guillemot", Limit: 10})
	if err != nil || len(hits) != 10 {
		t.Errorf("search for guillemot: %d hits, %v; want 10", len(hits), err)
	}
}
