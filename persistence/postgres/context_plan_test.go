package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
)

// TestContextReadsSeekTheirIndexes runs the context builder's position reads, as the store
// runs them, on a session of 20,000 counted messages beside ten of 2,000, each under
// EXPLAIN ANALYZE, and checks that each reads a few pages, not the session's: FirstUncounted
// and FirstSeqReaching seek messages_by_cum, TurnStart messages_by_turn. The primary key
// (sid, seq) cannot answer them (bench/README.md, issue 30 round 7, branch r41idx): without
// those indexes each reads the whole session, 300 to 1,100 pages here, and the builder's binary
// search over turns makes that many reads per build.
func TestContextReadsSeekTheirIndexes(t *testing.T) {
	url, store, big, _ := twoSessions(t)
	c := connectAt(t, url)
	ctx := context.Background()
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO sessions(id, created_at, updated_at) SELECT 'other-' || i, 0, 0 FROM generate_series(1, 10) i`, nil},
		// One message in four a prompt, a turn each; 100 tokens each, so counts follow seq.
		{`INSERT INTO messages(sid, seq, uuid, type, role, turn, status, created_at, tokens, pruned_tokens, cum_tokens, cum_pruned)
			SELECT s.sid, g, md5(s.sid || '-' || g), CASE WHEN g % 4 = 0 THEN 'user' ELSE 'assistant' END,
				CASE WHEN g % 4 = 0 THEN 'user' ELSE 'assistant' END, g / 4, 'complete', 0, 100, 50, 100 * (g + 1), 50 * (g + 1)
			FROM sessions s, generate_series(0, CASE WHEN s.id = $1 THEN 19999 ELSE 1999 END) g
			WHERE s.id = $1 OR s.id LIKE 'other-%'`, []any{big.ID()}},
		{`ANALYZE messages`, nil},
	} {
		if _, err := c.Exec(ctx, stmt.sql, stmt.args...); err != nil {
			t.Fatal(err)
		}
	}
	var pages []int64
	reads := contextcache.Reads{Session: func(id, what string, fn func(db contextcache.DB, sid int64) error) error {
		return store.cacheSession(id, what, func(db contextcache.DB, sid int64) error {
			return fn(explained{db, &pages}, sid)
		})
	}}
	for _, read := range []struct {
		name string
		run  func() (int64, bool, error)
		want int64
	}{
		{"FirstUncounted", func() (int64, bool, error) { return reads.FirstUncounted(big.ID()) }, -1},
		{"FirstSeqReaching near the end", func() (int64, bool, error) { return reads.FirstSeqReaching(big.ID(), 1_900_000) }, 18_999},
		{"TurnStart of the middle turn", func() (int64, bool, error) { return reads.TurnStart(big.ID(), 2_500) }, 10_000},
	} {
		pages = pages[:0]
		seq, found, err := read.run()
		if err != nil || found != (read.want >= 0) || (found && seq != read.want) {
			t.Errorf("%s = %d, %v, %v; want %d", read.name, seq, found, err, read.want)
		}
		if len(pages) != 1 || pages[0] > 20 {
			t.Errorf("%s read %v pages, want one statement reading at most 20 (it reads 300 to 1,100 without its index)", read.name, pages)
		}
	}
}

// explained is a contextcache.DB that runs each query, then again under EXPLAIN (ANALYZE,
// BUFFERS) to record the pages it read, found in the buffers or not.
type explained struct {
	db    contextcache.DB
	pages *[]int64
}

// Query runs query, then records its pages.
func (e explained) Query(query string, args []any, fn func(row []any) error) error {
	if err := e.db.Query(query, args, fn); err != nil {
		return err
	}
	return e.db.Query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+query, args, func(row []any) error {
		text, err := json.Marshal(row[0])
		if err != nil {
			return err
		}
		var plan []struct {
			Plan struct {
				Hit  int64 `json:"Shared Hit Blocks"`
				Read int64 `json:"Shared Read Blocks"`
			}
		}
		if err := json.Unmarshal(text, &plan); err != nil || len(plan) != 1 {
			return fmt.Errorf("an EXPLAIN of %d plans (%v): %s", len(plan), err, text)
		}
		*e.pages = append(*e.pages, plan[0].Plan.Hit+plan[0].Plan.Read)
		return nil
	})
}

// Exec is refused: the reads write nothing.
func (e explained) Exec(string, ...any) error { panic("a context read wrote") }
