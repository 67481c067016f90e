package postgres

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestIndexerYieldsToReads keeps reading the store while messages are written and for a while
// after: the background indexer must index none of them while reads keep coming (W3's tails
// one after another), and all of them once the reads stop.
func TestIndexerYieldsToReads(t *testing.T) {
	store := openAt(t, freshURL(t))
	stop, done := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stopReading := func() { once.Do(func() { close(stop); <-done }) }
	t.Cleanup(stopReading)
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(indexIdle / 5):
			}
			store.read(func(c conn) error { return c.query(`SELECT 1`, nil, func([]any) error { return nil }) })
		}
	}()
	texts := make([]string, 2*idleIndexSlice+3)
	for i := range texts {
		texts[i] = "egret " + strconv.Itoa(i)
	}
	s := newSession(t, session.NewManager(store), texts...)
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * indexIdle)
	if n := waitingMessages(t, store); n != int64(len(texts)) {
		t.Errorf("%d of %d messages waiting while reads kept coming, want all: the indexer did not yield", n, len(texts))
	}
	stopReading()
	deadline := time.Now().Add(10 * time.Second)
	for waitingMessages(t, store) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d messages still waiting 10 s after the reads stopped", waitingMessages(t, store))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.Close()
}
