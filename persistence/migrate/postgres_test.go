package migrate_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/migrate"
	"github.com/sessionkeep/sessionkeep/persistence/postgres"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// postgresManager opens a store in a new schema of the server SESSIONKEEP_TEST_PG_URL names
// (make test starts one); the test is skipped when it is unset.
func postgresManager(t *testing.T) *session.Manager {
	t.Helper()
	base := os.Getenv("SESSIONKEEP_TEST_PG_URL")
	if base == "" {
		t.Skip("SESSIONKEEP_TEST_PG_URL is unset: start a server with `node test/helpers/pg-cluster.mjs start <dir>` and export its URL")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", fmt.Sprintf("migrate_%x", rand.Uint64()))
	u.RawQuery = q.Encode()
	st, err := postgres.Open(u.String())
	if err != nil {
		t.Fatalf("postgres.Open: %v", err)
	}
	m := session.NewManager(st)
	m.CountTokens(tokens.NewCounter(st))
	t.Cleanup(func() { m.Close() })
	return m
}

func TestAStoreMovedToPostgreSQLAndBackReadsAsTheSource(t *testing.T) {
	pg := postgresManager(t)
	from, back := sessiontest.NewEnv(t), sessiontest.NewEnv(t)
	ids := fill(t, from)

	there, err := migrate.Run(from.Mgr, pg, nil)
	if err != nil || there.SessionCount != 3 || there.Records == 0 {
		t.Fatalf("to PostgreSQL: %+v, %v", there, err)
	}
	home, err := migrate.Run(pg, back.Mgr, nil)
	if err != nil || home.SessionCount != 3 || home.Records != there.Records {
		t.Fatalf("back: %+v, %v (there: %+v)", home, err, there)
	}
	for _, id := range ids {
		if got, want := export(t, back, id), export(t, from, id); string(got) != string(want) {
			t.Fatalf("session %s came back as\n%s\nnot\n%s", id, got, want)
		}
	}
	again, err := migrate.Run(from.Mgr, pg, nil)
	if err != nil || again.Records != 0 || again.Existing != there.Records {
		t.Fatalf("a second run to PostgreSQL copied again: %+v, %v", again, err)
	}
}
