package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/commitqueue"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// writer owns the store's one writing connection. Ops queue in memory in its
// commitqueue.Queue, whose goroutine has it apply everything queued so far in one
// transaction and commit (group commit), so a batch is committed a few milliseconds after
// its first Op arrives. It is the Queue's Backend; the Queue's goroutine is the only one
// to use its connection.
type writer struct {
	q      *commitqueue.Queue
	c      *sqlconn.Conn
	path   string      // the database file
	file   os.FileInfo // the database file as it was opened, to tell it from a new one
	owner  string      // this process, recorded on the sessions it writes
	sids   map[string]int64
	bodies msgbody.Builder
	open   msgbody.OpenBodies    // messages begun and not ended (writer goroutine only)
	ending map[batchMessage]bool // messages the batch being applied begins and ends (endingInBatch)
	// inserted is what the rows the batch being applied inserted owe (insert_effects.go).
	inserted insertEffects
	// checkpoints copies the WAL into the database file beside the writer (checkpointer.go).
	checkpoints *checkpointer
	// busy is since when another connection's lock keeps commits waiting (writer_failure.go).
	busy backoff

	// The search index (search_index.go): blocks wait in search_pending until the writer is
	// idle or a search waits for them. Guarded by the Queue's lock.
	indexPending  bool    // blocks are waiting to be indexed
	ownBlocks     bool    // this writer wrote some of them, so it may index them when idle
	indexWaiters  int     // searches waiting for the index to catch up
	indexErr      error   // why the last slice failed to index; nil after one that did not
	indexBusy     backoff // since when another connection's lock keeps indexing waiting
	blocksInBatch bool    // the batch being applied wrote blocks or bodies to index (writer goroutine only)

	// refused: messages of this writer another process's took the place of (conflict.go;
	// writer goroutine only).
	refused refusedMessages
}

func newWriter(c *sqlconn.Conn, path, owner string) (*writer, error) {
	file, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", session.ErrStorage, path, err)
	}
	w := &writer{c: c, path: path, file: file, owner: owner, sids: map[string]int64{}, open: msgbody.OpenBodies{}}
	var behind bool
	err = retryBusy("reading the search queue", func() (err error) {
		behind, err = w.indexBehind()
		return err
	})
	if err != nil {
		return nil, sqlconn.Wrap("reading the search queue", err)
	}
	w.indexPending = behind
	if err := boundWAL(c); err != nil {
		return nil, sqlconn.Wrap("setting the checkpoint", err)
	}
	w.checkpoints = startCheckpointer(path)
	w.q = commitqueue.New(w)
	w.q.Start()
	return w, nil
}

// enqueue queues ops; it never waits on disk. An imported record whole in ops is first
// put in its stored form on the caller's goroutine (msgbody.PrepareImported), outside the lock.
func (w *writer) enqueue(ops []session.Op) { w.queueOps(msgbody.PrepareImported(ops)) }

// queueOps queues ops as they are, one after another, behind what is queued already.
func (w *writer) queueOps(ops []session.Op) { w.q.Enqueue(ops) }

// sync waits until every Op queued before the call is committed.
func (w *writer) sync() error { return w.q.Sync() }

// flush waits until every Op queued before the call is durable on disk.
func (w *writer) flush() error { return w.q.Flush() }

// takeError returns the error of the writer's current run of failures once.
func (w *writer) takeError() error { return w.q.TakeError() }

// close commits and syncs what is queued, then stops the writer and closes its connection.
func (w *writer) close() error {
	err := w.q.Close()
	w.checkpoints.stop()
	return errors.Join(err, w.c.Close())
}

// Commit applies batch in one transaction (commit, apply.go) and, with durable, makes it
// durable on disk (syncToDisk). A batch rolled back may have created sessions: their keys
// are not taken any more, and another process may take them next.
func (w *writer) Commit(batch []session.Op, durable, closing bool) (committed bool, err error) {
	w.blocksInBatch = false
	if err := w.commit(batch); err != nil {
		w.sids = map[string]int64{}
		return false, err
	}
	w.checkpoints.committed(w.c)
	if w.blocksInBatch {
		w.q.Lock()
		w.indexPending, w.ownBlocks = true, true
		w.q.Unlock()
	}
	if durable {
		return true, w.syncToDisk(closing) // on failure the batch stays committed; the sync is retried
	}
	return true, nil
}

// Idle has the writer index a slice of blocks for search at once when a search waits for
// the index, and after indexIdle with nothing to commit when blocks it wrote are waiting.
func (w *writer) Idle() (now bool, after time.Duration) {
	w.q.Lock()
	defer w.q.Unlock()
	if w.indexPending && w.ownBlocks {
		after = indexIdle
	}
	return w.indexPending && w.indexWaiters > 0, after
}

// Work indexes one slice of the blocks waiting for search (indexStep).
func (w *writer) Work() { w.indexStep() }

// indexStep indexes one slice of the waiting blocks. Another connection's lock is waited
// out as commits wait it out (indexLockWait). After any other failure the writer stops
// indexing when idle, so that a damaged index never keeps it busy: the searches waiting get
// the error, and the next search, or the next block written, tries again.
func (w *writer) indexStep() {
	more, err := w.indexNextSlice()
	if err = w.indexLockWait(err); err == errIndexLater {
		return // the blocks stay pending: the next await indexes again
	}
	w.q.Lock()
	w.indexErr = err
	if err == nil {
		w.indexPending = more
		w.ownBlocks = w.ownBlocks && more
	} else {
		w.ownBlocks = false
	}
	w.q.Broadcast()
	w.q.Unlock()
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
	err := w.c.Query("PRAGMA wal_checkpoint(PASSIVE)", nil, func(row []driver.Value) error {
		busy, frames, copied := row[0], row[1], row[2]
		done = busy == int64(0) && frames == copied && frames != int64(-1)
		return nil
	})
	return err == nil && done
}
