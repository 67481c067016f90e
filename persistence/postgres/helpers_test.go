package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
)

// testURL is the throwaway server's URL from SESSIONKEEP_TEST_PG_URL (make test starts one
// with test/helpers/pg-cluster.mjs); the test is skipped when it is unset.
func testURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("SESSIONKEEP_TEST_PG_URL")
	if u == "" {
		t.Skip("SESSIONKEEP_TEST_PG_URL is unset: start a server with `node test/helpers/pg-cluster.mjs start <dir>` and export its URL")
	}
	return u
}

// freshURL is the URL of a new, empty store: a schema of its own in the test server,
// dropped at cleanup.
func freshURL(t testing.TB) string {
	t.Helper()
	base := testURL(t)
	schema := fmt.Sprintf("t_%x", rand.Uint64())
	fresh := withParam(t, base, "search_path", schema)
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		c.Exec(context.Background(), `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`)
	})
	return fresh
}

// withParam is the URL raw with its parameter key set to value.
func withParam(t testing.TB, raw, key, value string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// openAt opens the store at url, closed at cleanup.
func openAt(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(url)
	if err != nil {
		t.Fatalf("Open(%s): %v", url, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// connectAt opens a connection of its own to the server at url, closed at cleanup.
func connectAt(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// twoSessions opens a fresh store and creates two sessions in it, flushed.
func twoSessions(t *testing.T) (url string, store *Store, first, second *session.Session) {
	t.Helper()
	url = freshURL(t)
	store = openAt(t, url)
	m := session.NewManager(store)
	first, second = newSession(t, m), newSession(t, m)
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	return url, store, first, second
}
