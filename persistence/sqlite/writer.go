package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// commitWindow is how long the writer gathers Ops after the first one arrives before it
// commits them together, unless a read, a Flush or Close wants them at once. It keeps a
// stream of chunks from costing one transaction (and one wake-up of the writer) per chunk,
// and it is far inside the durability bound (a completed block is committed within it).
const commitWindow = 3 * time.Millisecond

// writer owns the store's one writing connection. Ops queue in memory; its goroutine takes
// everything queued so far, applies it in one transaction and commits (group commit), so a
// batch is committed a few milliseconds after its first Op arrives.
type writer struct {
	c      *conn
	path   string      // the database file
	file   os.FileInfo // the database file as it was opened, to tell it from a new one
	owner  string      // this process, recorded on the sessions it writes
	sids   map[string]int64
	bodies bodyBuilder
	open   openBodies            // messages begun and not ended (writer goroutine only)
	ending map[batchMessage]bool // messages the batch being applied begins and ends (endingInBatch)
	// inserted is what the rows the batch being applied inserted owe (insert_effects.go).
	inserted insertEffects
	// checkpoints copies the WAL into the database file beside the writer (checkpointer.go).
	checkpoints *checkpointer

	mu        sync.Mutex
	changed   *sync.Cond
	queue     []session.Op
	queued    uint64 // Ops queued since the store opened
	committed uint64 // of those, committed
	durable   uint64 // of those, synced to disk
	flushTo   uint64 // a Flush waits for this many to be durable
	err       error  // why the last batch failed, once callers are told; nil after a commit
	errSeen   bool   // err was handed to takeError
	attempts  uint64 // commits tried, failed or not
	dropped   error  // Ops skipped for conflicting with what is stored, reported by Flush
	closing   bool
	stopped   bool
	// The search index (search_index.go): blocks wait in search_pending until the writer is
	// idle or a search waits for them.
	indexPending  bool    // blocks are waiting to be indexed
	ownBlocks     bool    // this writer wrote some of them, so it may index them when idle
	indexWaiters  int     // searches waiting for the index to catch up
	indexErr      error   // why the last slice failed to index; nil after one that did not
	indexBusy     backoff // since when another connection's lock keeps indexing waiting
	blocksInBatch bool    // the batch being applied wrote blocks or bodies to index (writer goroutine only)
	wake          chan struct{}
	hurry         chan struct{} // someone waits: commit without waiting out the window

	// queuedRecords is how many Ops had been queued at the last one a read of records
	// depends on (see syncRecords).
	queuedRecords uint64
	// wakeArmed: a wake-up is set to come after commitWindow for queued records of
	// accesses and closes (wakeForBookkeeping).
	wakeArmed bool

	// refused: messages of this writer another process's took the place of (conflict.go;
	// writer goroutine only).
	refused refusedMessages
}

func newWriter(c *conn, path, owner string) (*writer, error) {
	file, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrStorage, path, err)
	}
	w := &writer{c: c, path: path, file: file, owner: owner, sids: map[string]int64{}, open: openBodies{},
		wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1)}
	w.changed = sync.NewCond(&w.mu)
	var behind bool
	err = retryBusy("reading the search queue", func() (err error) {
		behind, err = w.indexBehind()
		return err
	})
	if err != nil {
		return nil, storageError("reading the search queue", err)
	}
	w.indexPending = behind
	if err := boundWAL(c); err != nil {
		return nil, storageError("setting the checkpoint", err)
	}
	w.checkpoints = startCheckpointer(path)
	go w.run()
	return w, nil
}

// enqueue queues ops; it never waits on disk. An imported record whole in ops is first
// put in its stored form on the caller's goroutine (prepareImported), outside the lock.
func (w *writer) enqueue(ops []session.Op) { w.queueOps(prepareImported(ops)) }

// queueOps queues ops as they are, one after another, behind what is queued already.
func (w *writer) queueOps(ops []session.Op) {
	w.mu.Lock()
	w.queue = append(w.queue, ops...)
	w.queued += uint64(len(ops))
	w.noteRecords(ops)
	bookkeepingOnly := onlyBookkeeping(ops)
	arm := bookkeepingOnly && !w.wakeArmed
	w.wakeArmed = w.wakeArmed || arm
	w.mu.Unlock()
	switch {
	case arm:
		time.AfterFunc(commitWindow, w.wakeForBookkeeping)
	case !bookkeepingOnly:
		w.signal()
	}
}

func (w *writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// urge makes the writer commit what is queued without waiting out its window.
func (w *writer) urge() {
	select {
	case w.hurry <- struct{}{}:
	default:
	}
	w.signal()
}

// gather waits out the commit window, unless someone is waiting.
func (w *writer) gather(t *time.Timer) {
	t.Reset(commitWindow)
	select {
	case <-w.hurry:
		t.Stop() // since Go 1.23 a stopped timer's channel holds no stale tick
	case <-t.C:
	}
}

// sync waits until every Op queued before the call is committed.
func (w *writer) sync() error {
	return w.syncTo(func() uint64 { return w.queued })
}

// syncTo waits until the Ops up to the count target reads (with mu held) are committed.
func (w *writer) syncTo(target func() uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return session.ErrStoreClosed
	}
	to, tried := target(), w.attempts
	if w.committed < to {
		w.urge()
	}
	return w.waitUntil(&w.committed, to, tried)
}

// flush waits until every Op queued before the call is durable on disk.
func (w *writer) flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return session.ErrStoreClosed
	}
	target, tried := w.queued, w.attempts
	w.flushTo = max(w.flushTo, target)
	w.urge()
	if err := w.waitUntil(&w.durable, target, tried); err != nil {
		return err
	}
	dropped := w.dropped
	w.dropped = nil
	return dropped
}

// waitUntil waits, with mu held, until progress (committed or durable) reaches target, an
// attempt to commit made after tried fails, or the writer stops, and says why it stopped
// short, if it did.
func (w *writer) waitUntil(progress *uint64, target, tried uint64) error {
	for *progress < target && !w.failedSince(tried) && !w.stopped {
		w.changed.Wait()
	}
	return w.status(*progress, target)
}

// failedSince reports whether an attempt to commit made after the attempts count was
// tried failed, and callers are to be told: so a caller waits for a fresh attempt rather
// than taking the last one's error, which space freed or a lock let go may have cured.
func (w *writer) failedSince(tried uint64) bool { return w.err != nil && w.attempts > tried }

// status says why progress stopped short of target, if it did.
func (w *writer) status(progress, target uint64) error {
	switch {
	case progress >= target:
		return nil
	case w.err != nil:
		return w.err
	default:
		return session.ErrStoreClosed
	}
}

// close commits and syncs what is queued, then stops the writer and closes its connection.
func (w *writer) close() error {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	w.urge()
	w.mu.Lock()
	for !w.stopped {
		w.changed.Wait()
	}
	err := w.err
	w.mu.Unlock()
	w.checkpoints.stop()
	return errors.Join(err, w.c.close())
}

// run is the writer goroutine.
func (w *writer) run() {
	var f failure
	window := time.NewTimer(commitWindow)
	window.Stop()
	idle := time.NewTimer(indexIdle)
	idle.Stop()
	for {
		index := false
		if f.count > 0 {
			time.Sleep(f.wait())
		} else {
			index = w.await(window, idle)
		}
		w.mu.Lock()
		batch, target := w.queue, w.queued
		w.queue = nil
		wantDurable, closing := w.flushTo > w.durable || w.closing, w.closing
		w.mu.Unlock()

		w.blocksInBatch = false
		err := w.commit(batch)
		committed := err == nil
		if committed {
			w.checkpoints.committed(w.c)
		}
		if committed && wantDurable {
			err = w.syncToDisk(closing) // on failure the batch stays committed; the sync is retried
		}
		var report error // what callers are told of err; nil while a lock is waited out
		if err != nil {
			report = w.withSuspects(f.note(err))
		}

		w.mu.Lock()
		w.attempts++
		if committed {
			w.committed = target
			if w.blocksInBatch {
				w.indexPending, w.ownBlocks = true, true
			}
		} else {
			// The rolled-back batch may have created sessions: their keys are not taken
			// any more, and another process may take them next.
			w.sids = map[string]int64{}
			w.queue = append(batch, w.queue...)
		}
		if err != nil {
			w.fail(report)
		} else {
			f = failure{}
			w.err = nil
			if wantDurable {
				w.durable = target
			}
		}
		done := closing && (err == nil || (w.err != nil && f.count >= closeAttempts))
		w.stopped = done
		w.changed.Broadcast()
		w.mu.Unlock()
		if done {
			return
		}
		if index && err == nil && !closing {
			w.indexStep()
		}
	}
}

// await waits for Ops, then waits out the commit window. It returns true instead when the
// writer should index a slice of blocks for search: a search waits for the index, or the
// writer has had nothing to commit for indexIdle and blocks it wrote are waiting.
func (w *writer) await(window, idle *time.Timer) (index bool) {
	w.mu.Lock()
	pending, waited, own := w.indexPending, w.indexWaiters > 0, w.ownBlocks
	w.mu.Unlock()
	switch {
	case pending && waited:
		return true
	case !pending || !own:
		<-w.wake
		w.gather(window)
		return false
	}
	idle.Reset(indexIdle)
	select {
	case <-w.wake:
		idle.Stop()
		w.gather(window)
		return false
	case <-idle.C:
		return true
	}
}

// indexStep indexes one slice of the waiting blocks. Another connection's lock is waited
// out as commits wait it out (indexLockWait). After any other failure the writer stops
// indexing when idle, so that a damaged index never keeps it busy: the searches waiting get
// the error, and the next search, or the next block written, tries again.
func (w *writer) indexStep() {
	more, err := w.indexNextSlice()
	if err = w.indexLockWait(err); err == errIndexLater {
		return // the blocks stay pending: the next await indexes again
	}
	w.mu.Lock()
	w.indexErr = err
	if err == nil {
		w.indexPending = more
		w.ownBlocks = w.ownBlocks && more
	} else {
		w.ownBlocks = false
	}
	w.changed.Broadcast()
	w.mu.Unlock()
}

// syncToDisk makes everything committed durable. Commits run with synchronous=NORMAL,
// which writes the WAL without syncing it. A passive checkpoint syncs the WAL, copies it into
// the database file and syncs that; when another connection keeps it from copying every
// frame (a reader on an old snapshot, another checkpoint), it is skipped, never an error,
// and the WAL is synced here instead.
//
// SQLite goes on writing to a file that was deleted, which makes nothing durable, so a
// flush fails then; closing does not, since the caller can do nothing about a store deleted
// on purpose, and often deletes the folder before closing (temporary stores).
func (w *writer) syncToDisk(closing bool) error {
	if err := w.stillThere(); err != nil && !closing {
		return err
	}
	if w.checkpointed() {
		return nil
	}
	return syncFile(w.path + "-wal")
}

// checkpointed runs a passive checkpoint and reports whether every frame of the WAL is in
// the database file after it, which the checkpoint that copied it synced.
func (w *writer) checkpointed() bool {
	done := false
	err := w.c.query("PRAGMA wal_checkpoint(PASSIVE)", nil, func(row []driver.Value) error {
		busy, frames, copied := row[0], row[1], row[2]
		done = busy == int64(0) && frames == copied && frames != int64(-1)
		return nil
	})
	return err == nil && done
}
