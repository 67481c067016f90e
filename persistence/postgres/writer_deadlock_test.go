package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestADeadlockIsRetriedInSilence has the writer's batch lock one session's row and wait
// for a second's, which another connection holds while it waits for the first: a real
// deadlock, whose victim PostgreSQL makes the writer (the other connection waits longer
// before it looks). The batch is retried and committed, and a flush waiting all along hears
// of nothing.
func TestADeadlockIsRetriedInSilence(t *testing.T) {
	url, store, first, second := twoSessions(t)
	ctx := context.Background()
	other := connectAt(t, url)
	tx, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SET LOCAL deadlock_timeout = '10s'`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE sessions SET redactions = redactions WHERE id = $1`, second.ID()); err != nil {
		t.Fatal(err)
	}
	// The writer's batch locks the first session's row, then waits for the second's.
	store.Apply(session.AddRedactions{SessionID: first.ID(), Count: 1}, session.AccessSession{SessionID: second.ID(), At: time.Now()})
	flushed := make(chan error, 1)
	go func() { flushed <- store.Flush() }() // waiting while the batch fails, as a caller would
	waitForALockWait(t, url)
	if _, err := tx.Exec(ctx, `UPDATE sessions SET redactions = redactions WHERE id = $1`, first.ID()); err != nil {
		t.Fatalf("the other connection's update: %v (the writer should have been the deadlock's victim)", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-flushed; err != nil {
		t.Fatalf("a flush waiting through a deadlock the writer was the victim of: %v, want nil", err)
	}
	var redactions int64
	if err := other.QueryRow(ctx, `SELECT redactions FROM sessions WHERE id = $1`, first.ID()).Scan(&redactions); err != nil || redactions != 1 {
		t.Errorf("the retried batch left %d redactions (%v), want 1", redactions, err)
	}
}

// waitForALockWait waits until a connection of the server at url waits for a lock (the
// writer's, which locks its sessions' rows first: session_locks.go). It asks on a
// connection of its own, outside any transaction: within one, pg_stat_activity is read
// once and kept.
func waitForALockWait(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	c := connectAt(t, url)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int64
		err := c.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no connection waits for a lock after 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
