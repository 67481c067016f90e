package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestAProjectsListingIsNotPlannedAtEveryCall lists the 50 newest of a project of 2,000
// sessions ten times on a pool of one connection, and reads that connection's prepared
// statements: the listing ran its generic plan every time. Left to choose, the server counts
// the generic plan's LIMIT $n as a tenth of the project's rows, finds a custom plan cheaper
// and plans the listing afresh at every call (custom_plans 10), which made a listing of a
// large store slower than a small one's (bench/README.md, issue 30 round 8, r42grow).
func TestAProjectsListingIsNotPlannedAtEveryCall(t *testing.T) {
	url := freshURL(t)
	openAt(t, url)
	c := connectAt(t, url)
	ctx := context.Background()
	if _, err := c.Exec(ctx, `INSERT INTO sessions(id, project_path, title, created_at, updated_at)
		SELECT 'listed-' || i, '/p', 't', i, i FROM generate_series(1, 2000) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `ANALYZE sessions`); err != nil {
		t.Fatal(err)
	}
	s := openAt(t, withParam(t, url, "pool_max_conns", "1"))
	filter := catalog.ListFilter{ProjectPath: "/p", Limit: 50}
	for i := 0; i < 10; i++ {
		listed, err := s.ListSessions(filter)
		if err != nil {
			t.Fatal(err)
		}
		if len(listed) != 50 || listed[0].ID != "listed-2000" || listed[49].ID != "listed-1951" {
			t.Fatalf("listed %d sessions, from %s", len(listed), listed[0].ID)
		}
	}
	_, listing, _ := infocolumns.Listing(filter)
	listing = numbered(listing)
	var generic, custom int64
	found := false
	err := s.read(func(cn conn) error {
		return cn.query(`SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`, nil, func(row []any) error {
			if strings.Contains(row[0].(string), listing) {
				found, generic, custom = true, row[1].(int64), row[2].(int64)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatal("the listing is not a prepared statement of the pool's connection")
	}
	if custom != 0 || generic < 10 {
		t.Errorf("the listing ran %d generic plans and %d custom ones, want 10 or more generic and no custom", generic, custom)
	}
}
