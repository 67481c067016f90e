package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/session"
)

// notified reports whether c, listening on a channel, hears a notification within wait.
func notified(t *testing.T, c *pgx.Conn, wait time.Duration) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_, err := c.WaitForNotification(ctx)
	if err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	return err == nil
}

// TestCommitsNotifyOnlyWhileSomeoneWatches listens on the store's channel with a connection
// that does not hold the watchers' lock: a commit sends nothing while no watcher runs, and a
// notification once a Watch (of any session) started.
func TestCommitsNotifyOnlyWhileSomeoneWatches(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	s := newSession(t, session.NewManager(store))
	spy := connectAt(t, url)
	if _, err := spy.Exec(context.Background(), `LISTEN `+pgx.Identifier{store.channel}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		t.Helper()
		if _, err := s.AppendUserMessage([]byte(`"` + text + `"`)); err != nil {
			t.Fatal(err)
		}
		if err := store.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	write("no one watches")
	if notified(t, spy, 300*time.Millisecond) {
		t.Error("a commit notified while no watcher listened")
	}
	if _, err := store.Watch("another session"); err != nil {
		t.Fatal(err)
	}
	write("watched")
	if !notified(t, spy, 5*time.Second) {
		t.Error("a commit did not notify while a watcher listened")
	}
}

// TestAWatchStartedDuringACommitWaitsForIt holds a transaction that found no watcher (it took
// the watchers' lock, as a commit does, and sent no NOTIFY): a Watch begun meanwhile returns
// only once that transaction ended, so it cannot miss the commit's write.
func TestAWatchStartedDuringACommitWaitsForIt(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	ctx := context.Background()
	tx, err := connectAt(t, url).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sent bool
	if err := tx.QueryRow(ctx, notifySQL+` IS NOT NULL`, store.channel, "s").Scan(&sent); err != nil {
		t.Fatal(err)
	}
	if sent {
		t.Fatal("a transaction notified with no watcher listening")
	}
	watching := make(chan error, 1)
	go func() {
		_, err := store.Watch("s")
		watching <- err
	}()
	select {
	case err := <-watching:
		t.Fatalf("Watch returned (%v) while a commit that saw no watcher was still open", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-watching:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not return after the commit")
	}
}
