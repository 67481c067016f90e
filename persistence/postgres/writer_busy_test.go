package postgres

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestNotIndexedWhileABatchIsInFlight holds a batch in flight (as a batch of W1's, which
// takes the server hundreds of milliseconds, does) for many times indexIdle: the background
// indexer, which would take the server and lock the rows the batch updates, waits; once the
// batch is done and the writer idle, it indexes what waits.
func TestNotIndexedWhileABatchIsInFlight(t *testing.T) {
	store := openAt(t, freshURL(t))
	store.indexer.noteWriting(true)
	newSession(t, session.NewManager(store), "egret one", "egret two", "egret three")
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(6 * indexIdle)
	if n := waitingMessages(t, store); n != 3 {
		t.Fatalf("%d messages waiting while a batch is in flight, want 3: the indexer took the writer for idle", n)
	}
	store.indexer.noteWriting(false)
	store.indexer.noteCommit(false)
	deadline := time.Now().Add(10 * time.Second)
	for waitingMessages(t, store) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d messages still waiting 10 s after the batch was done", waitingMessages(t, store))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
