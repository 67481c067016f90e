package commitqueue

import (
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// CommitWindow is how long a Queue gathers Ops after the first one arrives before it has
// them committed together, unless a read, a Flush or Close wants them at once. It keeps a
// stream of chunks from costing one transaction (and one wake-up of the writer) per chunk,
// and it is far inside the durability bound (a completed block is committed within it).
const CommitWindow = 3 * time.Millisecond

// closeAttempts is how many times Close tries to commit what is queued, once callers have
// been told of a failure, before it gives up and reports the error.
const closeAttempts = 3

// Backend is what a store's writer gives its Queue: the writing of batches. The Queue calls
// it from its one goroutine only.
type Backend interface {
	// Commit applies batch in one transaction and commits it; with durable, it also makes
	// everything committed durable on disk. committed reports whether the batch is
	// committed even when err is not nil (a sync that failed after the commit); a batch
	// not committed was rolled back whole and is retried.
	Commit(batch []session.Op, durable, closing bool) (committed bool, err error)
	// Failed is told of the run-th failed attempt in a row (1 for the first) and returns
	// what callers are to be told of err (nil: wait in silence, as for another process's
	// lock) and how long to wait before the next attempt.
	Failed(err error, run int) (report error, wait time.Duration)
}

// IdleWorker is a Backend with work to do in the background while no Op waits (indexing
// for search on SQLite); the Queue calls it from its goroutine, between commits.
type IdleWorker interface {
	// Idle says what background work the backend has while no Op is queued: now asks for
	// Work at once, after for Work once no Op arrived for that long (0: none).
	Idle() (now bool, after time.Duration)
	// Work does one step of the background work Idle asked for.
	Work()
}

// Queue is the group-commit queue both backends write through. Ops queue in memory and
// never wait on disk or network; its goroutine takes everything queued so far and has the
// Backend commit it in one transaction, so a batch is committed a few milliseconds after
// its first Op arrives. Callers wait on it for their Ops to be committed (Sync, SyncTo) or
// durable (Flush). A failed batch stays queued, in order, and is retried: nothing is
// dropped.
//
// Its lock also guards what a backend keeps beside it and waits for with it (the search
// index's progress on SQLite): Lock, Unlock, Wait and Broadcast.
type Queue struct {
	b Backend

	mu      sync.Mutex
	changed *sync.Cond
	ops     []session.Op
	// The counts are of Ops queued since the store opened.
	queued    uint64
	committed uint64
	durable   uint64
	flushTo   uint64 // a Flush waits for this many to be durable
	// queuedRecords is how many had been queued at the last one a read of records
	// depends on (RecordsThrough).
	queuedRecords uint64
	err           error // why the last batch failed, once callers are told; nil after a commit
	errSeen       bool  // err was handed to TakeError
	attempts      uint64
	dropped       error // Ops skipped for conflicting with what is stored, reported by Flush
	closing       bool
	stopped       bool
	// wakeArmed: a wake-up is set to come after CommitWindow for queued records of
	// accesses and closes (wakeForBookkeeping).
	wakeArmed bool
	wake      chan struct{}
	hurry     chan struct{} // someone waits: commit without waiting out the window
}

// New returns a Queue that commits through b, once started (Start): a backend keeps the
// Queue before its goroutine calls it back.
func New(b Backend) *Queue {
	q := &Queue{b: b, wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1)}
	q.changed = sync.NewCond(&q.mu)
	return q
}

// Start starts the Queue's goroutine, which commits until Close.
func (q *Queue) Start() { go q.run() }

// Enqueue queues ops, one after another, behind what is queued already. Queuing only the
// records of accesses and closes does not wake the writer at once: wakeForBookkeeping does,
// after CommitWindow. Woken at once, the writer's thread started on the cores the caller
// needed next: W3's open and tail after a GC took 1.24 ms against 1.09 this way on SQLite
// (medians of 150, fresh processes, two cores at load 6).
func (q *Queue) Enqueue(ops []session.Op) {
	q.mu.Lock()
	if through, ok := RecordsThrough(q.queued, ops); ok {
		q.queuedRecords = through
	}
	q.ops = append(q.ops, ops...)
	q.queued += uint64(len(ops))
	bookkeepingOnly := onlyBookkeeping(ops)
	arm := bookkeepingOnly && !q.wakeArmed
	q.wakeArmed = q.wakeArmed || arm
	q.mu.Unlock()
	switch {
	case arm:
		time.AfterFunc(CommitWindow, q.wakeForBookkeeping)
	case !bookkeepingOnly:
		q.signal()
	}
}

// onlyBookkeeping reports whether every op of ops is the record of an access or a close.
func onlyBookkeeping(ops []session.Op) bool {
	for _, op := range ops {
		if !Bookkeeping(op) {
			return false
		}
	}
	return true
}

// wakeForBookkeeping has the writer commit what is queued, the records of accesses and
// closes that did not wake it, unless a commit since took them.
func (q *Queue) wakeForBookkeeping() {
	q.mu.Lock()
	q.wakeArmed = false
	waiting := q.committed < q.queued && !q.closing
	q.mu.Unlock()
	if waiting {
		q.Urge()
	}
}

func (q *Queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Urge makes the writer commit what is queued, or do the work Idle asks for, without
// waiting out its window.
func (q *Queue) Urge() {
	select {
	case q.hurry <- struct{}{}:
	default:
	}
	q.signal()
}

// NoteDropped records an Op skipped for conflicting with what is stored; the next Flush
// reports it.
func (q *Queue) NoteDropped(err error) {
	q.mu.Lock()
	q.dropped = err
	q.mu.Unlock()
}

// TakeError returns the error of the writer's current run of failures the first time it
// is asked, and nil after that and while commits succeed: what an app shows its user once.
func (q *Queue) TakeError() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err == nil || q.errSeen {
		return nil
	}
	q.errSeen = true
	return q.err
}
