package tokens

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// appliedTokens is a Store that records the SetTokens the counter applies; the counter
// calls nothing else.
type appliedTokens struct {
	Store
	mu   sync.Mutex
	seqs []int64
}

func (a *appliedTokens) Apply(ops ...session.Op) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, op := range ops {
		if t, ok := op.(SetTokens); ok {
			a.seqs = append(a.seqs, t.Seq)
		}
	}
}

// Sync returns at once: the writer is never behind.
func (a *appliedTokens) Sync() error { return nil }

// behindStore is appliedTokens whose writer is behind: Sync returns once release is called.
type behindStore struct {
	appliedTokens
	syncs    atomic.Int32
	caughtUp chan struct{}
	release  func()
}

func newBehindStore() *behindStore {
	b := &behindStore{caughtUp: make(chan struct{})}
	b.release = sync.OnceFunc(func() { close(b.caughtUp) })
	return b
}

func (b *behindStore) Sync() error {
	b.syncs.Add(1)
	<-b.caughtUp
	return nil
}

func (a *appliedTokens) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.seqs)
}

// TestCounterWaitIsNotStarvedByAStream: while messages end back to back the counter holds
// off, but someone waiting for the counts (a context build) makes it count at once; every
// message is counted, in order, once the stream stops.
func TestCounterWaitIsNotStarvedByAStream(t *testing.T) {
	CountText("warm") // the vocabulary loads once, outside the race between the wait and the stream
	store := &appliedTokens{}
	c := NewCounter(store)
	defer c.Close()
	const jobs = 400
	streamed := make(chan struct{})
	go func() {
		defer close(streamed)
		for i := range jobs {
			c.Add(session.EndedMessage{SessionID: "s", Seq: int64(i), Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hello"}`)}})
			time.Sleep(time.Millisecond)
		}
	}()
	time.Sleep(20 * time.Millisecond)
	waited := make(chan time.Time)
	go func() {
		c.Wait("s")
		waited <- time.Now()
	}()
	select {
	case <-waited:
	case <-streamed:
		t.Fatal("a wait for counts returned only after the stream of jobs ended")
	}
	<-streamed
	c.Wait("s")
	if n := store.count(); n != jobs {
		t.Fatalf("%d of %d messages counted", n, jobs)
	}
	for i, seq := range store.seqs {
		if seq != int64(i) {
			t.Fatalf("count %d is of message %d: counts must come in order", i, seq)
		}
	}
}

// TestCounterCountsABacklogWithoutWaitingForQuiet: a writer that never pauses (a host
// serving many sessions) gives the counter no quiet quarter second; past counterBacklog
// bytes it counts anyway, and past twice it takes no more, so the queue, and the blocks it
// holds, stay bounded however fast messages end.
func TestCounterCountsABacklogWithoutWaitingForQuiet(t *testing.T) {
	store := &appliedTokens{}
	c := NewCounter(store)
	defer c.Close()
	block := []byte(`{"type":"text","text":"` + strings.Repeat("a", 64<<10) + `"}`)
	for i := range 4 * counterBacklog / len(block) {
		c.Add(session.EndedMessage{SessionID: "s", Seq: int64(i), Role: "user", Blocks: [][]byte{block}})
	}
	c.mu.Lock()
	queued := c.queued
	c.mu.Unlock()
	if queued > 2*counterBacklog+len(block) {
		t.Fatalf("%d bytes queued after four times the backlog ended at once, want at most twice (%d)", queued, 2*counterBacklog)
	}
	deadline := time.Now().Add(10 * time.Second)
	for store.count() == 0 && time.Now().Before(deadline) {
		for range 20 { // keep the writer busy: never a quiet counterQuiet
			c.Add(session.EndedMessage{SessionID: "s", Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"x"}`)}})
			time.Sleep(5 * time.Millisecond)
		}
	}
	if store.count() == 0 {
		t.Fatal("nothing counted while messages kept ending, with the backlog queued")
	}
}

// countUntil waits up to 10 seconds for store to have n counts, and reports whether it did.
func countUntil(store *behindStore, n int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for store.count() < n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return store.count() == n
}

// TestCounterWaitsForTheWriterToCatchUp: after its quiet quarter second the counter counts
// nothing until the store's writer has committed what was queued before (Sync returned): a
// writer still behind (PostgreSQL's during a bulk ingest) would share the cores with the
// tokenizing, and each count would be a second version of a row just inserted. Then it
// counts everything, in order.
func TestCounterWaitsForTheWriterToCatchUp(t *testing.T) {
	CountText("warm") // the vocabulary loads once, outside the timing below
	store := newBehindStore()
	c := NewCounter(store)
	defer c.Close()
	defer store.release() // before Close, which waits for the counter
	for i := range 3 {
		c.Add(session.EndedMessage{SessionID: "s", Seq: int64(i), Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hello"}`)}})
	}
	deadline := time.Now().Add(10 * time.Second)
	for store.syncs.Load() == 0 && store.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // for counts that would come without waiting
	if n := store.count(); n != 0 {
		t.Fatalf("%d messages counted while the writer was behind", n)
	}
	if n := store.syncs.Load(); n != 1 {
		t.Fatalf("the counter waited for the writer %d times, want once", n)
	}
	store.release()
	if !countUntil(store, 3) {
		t.Fatalf("%d of 3 messages counted once the writer caught up", store.count())
	}
	for i, seq := range store.seqs {
		if seq != int64(i) {
			t.Fatalf("count %d is of message %d: counts must come in order", i, seq)
		}
	}
}

// TestCounterWaitDoesNotWaitForTheWriter: someone waiting for the counts (a context build)
// has them counted at once, however far behind the writer is.
func TestCounterWaitDoesNotWaitForTheWriter(t *testing.T) {
	store := newBehindStore()
	c := NewCounter(store)
	defer c.Close()
	defer store.release()
	for i := range 3 {
		c.Add(session.EndedMessage{SessionID: "s", Seq: int64(i), Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hello"}`)}})
	}
	waited := make(chan struct{})
	go func() {
		c.Wait("s")
		close(waited)
	}()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("a wait for counts waited for the writer to catch up")
	}
	if n := store.count(); n != 3 {
		t.Fatalf("%d of 3 messages counted after a wait", n)
	}
}

// slowStore is appliedTokens whose Apply takes a millisecond: a store slower than the
// messages that end.
type slowStore struct{ appliedTokens }

func (s *slowStore) Apply(ops ...session.Op) {
	time.Sleep(time.Millisecond)
	s.appliedTokens.Apply(ops...)
}

// TestCounterWaitDoesNotWaitForJobsQueuedAfterIt: a wait returns once the jobs queued
// before it are counted, while the session's messages go on ending faster than they are
// counted; waiting until the session had none pending made it wait for the whole stream.
func TestCounterWaitDoesNotWaitForJobsQueuedAfterIt(t *testing.T) {
	CountText("warm") // the vocabulary loads once, outside the timing below
	store := &slowStore{}
	c := NewCounter(store)
	defer c.Close()
	const jobs = 1000 // 1 s of counting at least, queued in a quarter of that or so
	var queued atomic.Int64
	streamed := make(chan struct{})
	go func() {
		defer close(streamed)
		for i := range jobs {
			c.Add(session.EndedMessage{SessionID: "s", Seq: int64(i), Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hi"}`)}})
			queued.Store(int64(i + 1))
			time.Sleep(200 * time.Microsecond)
		}
	}()
	time.Sleep(10 * time.Millisecond)
	before := queued.Load()
	c.Wait("s")
	if counted := int64(store.count()); counted < before {
		t.Fatalf("the wait returned with %d of the %d messages queued before it counted", counted, before)
	}
	if n := store.count(); n >= jobs {
		t.Fatalf("the wait returned only after all %d messages were counted, not those queued before it", n)
	}
	<-streamed
}
