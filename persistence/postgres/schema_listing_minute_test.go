package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/infocolumns"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestTheListingsUpdateIsHOT writes a session commit by commit, as an agent's turns flushed
// one by one are: the writer's update of its listing at each commit (a new updated_at, the
// message count) changes no indexed column, so PostgreSQL makes it a HOT update, with no
// new entry in any index of sessions. Keyed by updated_at (before migration 8) none was.
func TestTheListingsUpdateIsHOT(t *testing.T) {
	url := freshURL(t)
	store, err := Open(url)
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, session.NewManager(store), "the first prompt")
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	const commits = 12
	for i := range commits {
		if _, err := s.AppendUserMessage([]byte(fmt.Sprintf("%q", fmt.Sprint("turn ", i)))); err != nil {
			t.Fatal(err)
		}
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	// A server process sends its table counts when its connection ends, at the latest.
	store.Close()
	c := connectAt(t, url)
	var updates, hot int64
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := c.QueryRow(context.Background(), `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
			WHERE relid = 'sessions'::regclass`).Scan(&updates, &hot); err != nil {
			t.Fatal(err)
		}
		if updates >= commits || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if updates < commits {
		t.Fatalf("%d updates of sessions counted for %d commits", updates, commits)
	}
	// Not HOT: the first commit's (the session opens: is_open is in sessions_open's
	// predicate) and one whose minute changed.
	if hot < commits-2 {
		t.Errorf("%d of %d updates of sessions were HOT, want at least %d", hot, updates, commits-2)
	}
}

// listed is a session's row as the listing orders it.
type listed struct {
	id             string
	sid, updatedAt int64
	project        string
	archived       bool
}

// TestTheListingKeepsItsOrder lists sessions written in the same millisecond, the same
// minute and across minutes' edges, in two projects, some archived, after updates that move
// them across minutes, an archive, an unarchive and a project's move: every listing has the
// order of updated_at then sid, newest first, as a sort of all rows gives it.
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
	check("after updates within and across minutes")
	exec(`UPDATE sessions SET archived_at = 1 WHERE id IN ('s01', 's05')`)
	exec(`UPDATE sessions SET archived_at = 0 WHERE id = 's03'`)
	check("after an archive and an unarchive")
	store.Apply(session.MoveProject{From: "/a", To: "/c"})
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	check("after /a moved to /c")
}

// TestMigrationEightFromSevenKeepsTheListing makes a store with sessions as migration 7
// left it (the listing's indexes keyed by updated_at, no updated_minute), then opens it:
// migration 8 fills the minute of every session and its listings are what they were.
func TestMigrationEightFromSevenKeepsTheListing(t *testing.T) {
	url := freshURL(t)
	openAt(t, url).Close()
	c := connectAt(t, url)
	ctx := context.Background()
	for _, stmt := range []string{
		`DROP INDEX sessions_listed`, `DROP INDEX sessions_by_project`, `ALTER TABLE sessions DROP COLUMN updated_minute`,
		`CREATE INDEX sessions_listed ON sessions(updated_at DESC, sid DESC) WHERE archived_at = 0`,
		`CREATE INDEX sessions_by_project ON sessions(project_path, updated_at DESC, sid DESC)`,
		`DELETE FROM schema_version WHERE version = 8`,
	} {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	for i := range 300 {
		if _, err := c.Exec(ctx, `INSERT INTO sessions(id, project_path, created_at, updated_at, archived_at) VALUES ($1, $2, 0, $3, $4)`,
			fmt.Sprintf("old-%03d", i), fmt.Sprint("/p", i%3), int64(1_790_000_000_000)+int64(i*7919%300)*17_000, int64(i%5/4)); err != nil {
			t.Fatal(err)
		}
	}
	filters := []catalog.ListFilter{{}, {IncludeArchived: true}, {ProjectPath: "/p1"}, {ProjectPath: "/p2", IncludeArchived: true, Limit: 30}}
	before := make([]string, len(filters))
	for i, f := range filters {
		before[i] = listedBefore(t, c, f)
	}
	migrated := openAt(t, url)
	var stale int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE updated_minute IS DISTINCT FROM updated_at / 60000`).Scan(&stale); err != nil {
		t.Fatalf("after migration 8: %v", err)
	}
	if stale != 0 {
		t.Errorf("%d sessions' updated_minute is not their updated_at's minute", stale)
	}
	for i, f := range filters {
		if after := listedIDs(t, migrated, f); after != before[i] {
			t.Errorf("listing %+v changed in migration 8:\nbefore %s\n after %s", f, before[i], after)
		}
	}
}

// listedBefore is filter's listing by the statement of the listing before migration 8
// (infocolumns.Listing's), read on c, its ids joined.
func listedBefore(t *testing.T, c *pgx.Conn, filter catalog.ListFilter) string {
	t.Helper()
	sel, query, args := infocolumns.Listing(filter)
	query = strings.Replace(numbered(query), `SELECT `+sel.SQL()+` FROM`, `SELECT id FROM`, 1)
	rows, err := c.Query(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(ids, " ")
}

// listedIDs is filter's listing in store, its ids joined.
func listedIDs(t *testing.T, store *Store, filter catalog.ListFilter) string {
	t.Helper()
	list, err := store.ListSessions(filter)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(list))
	for i, info := range list {
		ids[i] = info.ID
	}
	return strings.Join(ids, " ")
}
