package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// bloatSessions fills the store at url with n sessions of one project whose rows were each
// updated several times while another transaction held a snapshot, as the writer's commits
// leave them when the search indexer or a slow commit runs beside them: no old version
// could be pruned, so the table holds a few live rows a page. It returns the ids, newest
// first (the listing's order).
func bloatSessions(t *testing.T, url string, n int) []string {
	t.Helper()
	ctx := context.Background()
	c, holder := connectAt(t, url), connectAt(t, url)
	snapshot, err := holder.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Exec(ctx, `SELECT count(*) FROM sessions`); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[n-1-i] = fmt.Sprintf("0190a0b0-0000-7000-8000-%012d", i)
		if _, err := c.Exec(ctx, `INSERT INTO sessions(id, project_path, title, created_at, updated_at) VALUES ($1, '/p', $2, $3, $3)`,
			ids[n-1-i], strings.Repeat("a title ", 30), int64(i)*10); err != nil {
			t.Fatal(err)
		}
		for u := int64(1); u <= 6; u++ {
			if _, err := c.Exec(ctx, `UPDATE sessions SET updated_at = $1, message_count = message_count + 1 WHERE id = $2`,
				int64(i)*10+u, ids[n-1-i]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := snapshot.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `VACUUM ANALYZE sessions`); err != nil {
		t.Fatal(err)
	}
	return ids
}

// planOf returns the plan PostgreSQL makes for filter's listing, after the statements
// before (run in the same batch, as eachListing runs them), as planLines gives it.
func planOf(t *testing.T, s *Store, filter catalog.ListFilter, before ...batchQuery) string {
	t.Helper()
	_, query, args := infocolumns.Listing(filter)
	return planLines(t, s, numbered(query), args, before...)
}

// TestListingReadsInIndexOrder lists a table bloated as the writer leaves it: the planner
// alone scans the whole table and sorts it; the listing's statements read it through the
// index that holds its order, and return the same sessions in the same order, also in the
// statement modes PgBouncer's transaction mode needs (TestStoreContractBehindPgBouncer). A
// listing of every session of every project, which no index orders, keeps its sort.
func TestListingReadsInIndexOrder(t *testing.T) {
	url := freshURL(t)
	openAt(t, url)
	ids := bloatSessions(t, url, 400)
	for _, mode := range []string{"cache_statement", "exec", "simple_protocol"} {
		s := openAt(t, withParam(t, url, "default_query_exec_mode", mode))
		for _, tc := range []struct {
			name   string
			filter catalog.ListFilter
			index  string
		}{
			{"not archived", catalog.ListFilter{}, "sessions_listed"},
			{"a project's, archived too", catalog.ListFilter{ProjectPath: "/p", IncludeArchived: true}, "sessions_by_project"},
		} {
			t.Run(mode+", "+tc.name, func(t *testing.T) {
				if plan := planOf(t, s, tc.filter); !strings.Contains(plan, "Sort") {
					t.Fatalf("the planner alone reads the bloated table without a sort, so this test shows nothing:\n%s", plan)
				}
				if plan := planOf(t, s, tc.filter, readInIndexOrder); strings.Contains(plan, "Sort") || !strings.Contains(plan, "Index Scan "+tc.index) {
					t.Errorf("the listing's plan is not a read of %s in order:\n%s", tc.index, plan)
				}
				listed, err := s.ListSessions(tc.filter)
				if err != nil {
					t.Fatal(err)
				}
				if len(listed) != len(ids) {
					t.Fatalf("listed %d sessions, want %d", len(listed), len(ids))
				}
				for i, info := range listed {
					if info.ID != ids[i] || info.MessageCount != 6 {
						t.Fatalf("listing %d: %s with %d messages, want %s with 6", i, info.ID, info.MessageCount, ids[i])
					}
				}
				var each []string
				if err := s.EachListed(tc.filter, func(info *session.SessionInfo) error {
					each = append(each, info.ID)
					return nil
				}); err != nil || strings.Join(each, ",") != strings.Join(ids, ",") {
					t.Errorf("EachListed: %d sessions in another order (%v)", len(each), err)
				}
			})
		}
	}
	if orderServedByIndex(catalog.ListFilter{IncludeArchived: true}) {
		t.Error("a listing of every session of every project, which no index orders, has its sort disabled")
	}
}

// listed is a session's row as the listing orders it.
type listed struct {
	id             string
	sid, updatedAt int64
	project        string
	archived       bool
}

// TestTheListingKeepsItsOrder lists sessions written in the same millisecond and apart, in
// three projects (one under another), some archived, after updates that reorder them, an
// archive, an unarchive and a project's move: every listing (not archived, all, a
// project's, a page of them) has the order of updated_at then sid, newest first, that a
// sort of all the rows gives. It is the net for a change of the listing's statement or its
// indexes (bench/README.md, issue 30 round 8, tried one).
func TestTheListingKeepsItsOrder(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	c := connectAt(t, url)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := c.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	const minute = 60000
	base := int64(29_000_000) * minute
	times := []int64{base, base, base + 1, base + minute - 1, base + minute, base + minute, base + 5*minute + 7,
		base - 1, base - minute, base + 5*minute + 7, base + 2*minute + 30000, base + minute - 1}
	for i, at := range times {
		project := []string{"/a", "/b", "/a/sub"}[i%3]
		exec(`INSERT INTO sessions(id, project_path, title, created_at, updated_at, archived_at) VALUES ($1, $2, 't', $3, $3, $4)`,
			fmt.Sprintf("s%02d", i), project, at, int64(i%4/3)*at)
	}
	check := func(when string) {
		t.Helper()
		var rows []listed
		err := store.read(func(cn conn) error {
			return cn.query(`SELECT id, sid, updated_at, project_path, archived_at <> 0 FROM sessions`, nil, func(row []any) error {
				rows = append(rows, listed{row[0].(string), row[1].(int64), row[2].(int64), row[3].(string), row[4].(bool)})
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(rows, func(a, b listed) int {
			if a.updatedAt != b.updatedAt {
				return int(b.updatedAt - a.updatedAt)
			}
			return int(b.sid - a.sid)
		})
		for _, f := range []catalog.ListFilter{{}, {IncludeArchived: true}, {ProjectPath: "/a"}, {ProjectPath: "/b", IncludeArchived: true},
			{ProjectPath: "/c"}, {Limit: 3}, {Limit: 4, Offset: 2}, {ProjectPath: "/a", IncludeArchived: true, Limit: 2, Offset: 1}} {
			var want []string
			for _, r := range rows {
				if (f.ProjectPath == "" || r.project == f.ProjectPath) && (f.IncludeArchived || !r.archived) {
					want = append(want, r.id)
				}
			}
			want = want[min(f.Offset, len(want)):]
			if f.Limit > 0 {
				want = want[:min(f.Limit, len(want))]
			}
			got, err := store.ListSessions(f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, info := range got {
				ids = append(ids, info.ID)
			}
			if strings.Join(ids, " ") != strings.Join(want, " ") {
				t.Errorf("%s, listing %+v:\n got %v\nwant %v", when, f, ids, want)
			}
		}
	}
	check("as written")
	exec(`UPDATE sessions SET updated_at = $1 WHERE id = 's08'`, base+5*minute+7)
	exec(`UPDATE sessions SET updated_at = updated_at + 1 WHERE id IN ('s00', 's03')`)
	exec(`UPDATE sessions SET updated_at = $1 WHERE id = 's06'`, base-2*minute)
	check("after updates")
	exec(`UPDATE sessions SET archived_at = 1 WHERE id IN ('s01', 's05')`)
	exec(`UPDATE sessions SET archived_at = 0 WHERE id = 's03'`)
	check("after an archive and an unarchive")
	store.Apply(session.MoveProject{From: "/a", To: "/c"})
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	check("after /a moved to /c")
}
