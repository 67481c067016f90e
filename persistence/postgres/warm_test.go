package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// preparedPlans returns, for each of the hot reads' statements prepared on one of the
// pool's idle connections, how many times the server ran it with its generic plan and how
// many with a custom one; every idle connection is looked at, each once.
func preparedPlans(t *testing.T, s *Store) []map[string][2]int64 {
	t.Helper()
	names := map[string]string{loadStateSQL: "load", resumedSQL: "resumed", scanFromSQL: "scan"}
	var out []map[string][2]int64
	conns := s.pool.AcquireAllIdle(context.Background())
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	for _, c := range conns {
		plans := map[string][2]int64{}
		rows, err := c.Query(context.Background(), `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var sql string
			var generic, custom int64
			if err := rows.Scan(&sql, &generic, &custom); err != nil {
				t.Fatal(err)
			}
			if name, ok := names[sql]; ok {
				plans[name] = [2]int64{generic, custom}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		out = append(out, plans)
	}
	return out
}

// TestAnOpenReadiesThePoolForTheFirstReads checks that once the open's warm-up has ended,
// every connection the pool holds idle has the open's and the tail's statements prepared
// with their generic plans made, and none planned for its values.
func TestAnOpenReadiesThePoolForTheFirstReads(t *testing.T) {
	s := openAt(t, freshURL(t))
	s.warm.wait()
	all := preparedPlans(t, s)
	if len(all) == 0 {
		t.Fatal("the pool holds no idle connection after the open")
	}
	for i, plans := range all {
		for _, name := range []string{"load", "resumed", "scan"} {
			p, ok := plans[name]
			if !ok || p[0] != 1 || p[1] != 0 {
				t.Errorf("connection %d of %d: %s prepared %v with [generic custom] plans %v, want prepared with [1 0]", i+1, len(all), name, ok, p)
			}
		}
	}
}

// TestTheOpenAndTheTailRunTheirGenericPlans checks that the reads of an open and a tail
// never have the server plan them for their values: PostgreSQL would otherwise plan the
// first five runs of each afresh, and the tail's for good.
func TestTheOpenAndTheTailRunTheirGenericPlans(t *testing.T) {
	s := openAt(t, freshURL(t))
	first := newSession(t, session.NewManager(s), "hello")
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.warm.wait()
	for range 8 {
		if _, err := s.LoadSessionResuming(first.ID(), 16, func(*session.StoredMessage) bool { return true }); err != nil {
			t.Fatal(err)
		}
		n := 0
		if _, err := s.ScanEncodedUnbranched(first.ID(), 0, func(*session.StoredMessage) error { n++; return nil }); err != nil || n != 1 {
			t.Fatalf("the scan read %d messages (%v), want 1", n, err)
		}
	}
	runs := int64(0)
	for _, plans := range preparedPlans(t, s) {
		for _, name := range []string{"load", "resumed", "scan"} {
			if p := plans[name]; p[1] != 0 {
				t.Errorf("%s ran %d times with a custom plan, want none", name, p[1])
			} else {
				runs += p[0]
			}
		}
	}
	if runs < 3*8 {
		t.Errorf("the reads ran their generic plans %d times in all, want at least %d", runs, 3*8)
	}
	// The setting lasted only for the reads' own transactions.
	for _, c := range s.pool.AcquireAllIdle(context.Background()) {
		var mode string
		err := c.QueryRow(context.Background(), `SHOW plan_cache_mode`).Scan(&mode)
		c.Release()
		if err != nil || mode != "auto" {
			t.Errorf("plan_cache_mode after the reads is %q (%v), want auto", mode, err)
		}
	}
}

// TestClosingAStoreWhileItWarmsUpLeavesNothingRunning opens stores and closes them at
// once, while their warm-up runs: Close does not wait for it, the warm-up ends soon after
// with the pool closed, and the server holds none of their connections after.
func TestClosingAStoreWhileItWarmsUpLeavesNothingRunning(t *testing.T) {
	url := freshURL(t)
	openAt(t, url).Close() // migrated, so that the opens below are quick
	app := fmt.Sprintf("warm_close_%x", rand.Uint64())
	at := withParam(t, url, "application_name", app)
	for range 10 {
		s, err := Open(at)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-s.warm.done:
		case <-time.After(5 * time.Second):
			t.Fatal("the warm-up still runs 5 s after Close")
		}
		if n := s.pool.Stat().TotalConns(); n != 0 {
			t.Fatalf("the pool of a closed store holds %d connections once its warm-up ended", n)
		}
	}
	c := connectAt(t, url)
	left := -1
	for deadline := time.Now().Add(5 * time.Second); left != 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&left); err != nil {
			t.Fatal(err)
		}
	}
	if left != 0 {
		t.Errorf("%d server connections of the closed stores are left", left)
	}
}
