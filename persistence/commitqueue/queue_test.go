package commitqueue

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// recordingBackend commits into a list, failing while failing is set; each failure is
// told (report) and retried after a millisecond.
type recordingBackend struct {
	mu        sync.Mutex
	failing   error
	committed []session.Op
	durable   int // commits asked to be durable
}

func (b *recordingBackend) Commit(batch []session.Op, durable, closing bool) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failing != nil {
		return false, b.failing
	}
	b.committed = append(b.committed, batch...)
	if durable {
		b.durable++
	}
	return true, nil
}

func (b *recordingBackend) Failed(err error, run int) (error, time.Duration) {
	return err, time.Millisecond
}

// seen returns what was committed so far and how many commits were durable, read under
// the lock: the writer goroutine may still be committing (an empty batch after a Flush).
func (b *recordingBackend) seen() ([]session.Op, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]session.Op(nil), b.committed...), b.durable
}

func (b *recordingBackend) setFailing(err error) {
	b.mu.Lock()
	b.failing = err
	b.mu.Unlock()
}

func titles(n int) []session.Op {
	ops := make([]session.Op, n)
	for i := range ops {
		ops[i] = session.SetTitle{SessionID: "s", Title: string(rune('a' + i))}
	}
	return ops
}

// A batch that fails stays queued, in order, ahead of what is queued after it: Sync tells
// the failure, TakeError tells it once, and the next commit takes every Op in order.
func TestFailedBatchIsRetriedInOrder(t *testing.T) {
	b := &recordingBackend{}
	q := New(b)
	q.Start()
	full := errors.New("disk full")
	b.setFailing(full)
	ops := titles(4)
	q.Enqueue(ops[:2])
	if err := q.Sync(); !errors.Is(err, full) {
		t.Fatalf("Sync while failing = %v, want %v", err, full)
	}
	if err := q.TakeError(); !errors.Is(err, full) {
		t.Fatalf("TakeError = %v, want %v", err, full)
	}
	if err := q.TakeError(); err != nil {
		t.Fatalf("TakeError a second time = %v, want nil", err)
	}
	q.Enqueue(ops[2:])
	b.setFailing(nil)
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	committed, durable := b.seen()
	if len(committed) != 4 {
		t.Fatalf("committed %d ops, want 4", len(committed))
	}
	for i, op := range committed {
		if op != ops[i] {
			t.Fatalf("op %d committed is %v, want %v", i, op, ops[i])
		}
	}
	if durable == 0 {
		t.Fatal("Flush did not ask for a durable commit")
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if err := q.Sync(); !errors.Is(err, session.ErrStoreClosed) {
		t.Fatalf("Sync after Close = %v, want ErrStoreClosed", err)
	}
}

// Flush reports an Op skipped for a conflict once; Close gives up after closeAttempts
// failures and reports the failure.
func TestFlushReportsDroppedAndCloseGivesUp(t *testing.T) {
	b := &recordingBackend{}
	q := New(b)
	q.Start()
	q.Enqueue(titles(1))
	conflict := errors.New("conflict")
	q.NoteDropped(conflict)
	if err := q.Flush(); !errors.Is(err, conflict) {
		t.Fatalf("Flush = %v, want the conflict", err)
	}
	if err := q.Flush(); err != nil {
		t.Fatalf("second Flush = %v, want nil", err)
	}
	gone := errors.New("server gone")
	b.setFailing(gone)
	q.Enqueue(titles(1))
	if err := q.Close(); !errors.Is(err, gone) {
		t.Fatalf("Close = %v, want %v", err, gone)
	}
}
