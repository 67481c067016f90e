package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/persistence/commitqueue"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// retryDelay is how long the writer waits before retrying a batch that failed (the server
// is down, the network is cut): the batch stays queued in memory, nothing is dropped.
const retryDelay = 100 * time.Millisecond

// writer owns the store's writing connection. Ops queue in memory in its
// commitqueue.Queue, whose goroutine has it apply everything queued so far in one
// transaction (group commit): as on SQLite, a stream of chunks costs one transaction per
// commit window, not one per chunk. It is the Queue's Backend; the Queue's goroutine is the
// only one to use its connection.
type writer struct {
	q       *commitqueue.Queue
	cfg     *pgx.ConnConfig
	channel string
	indexer *searchIndexer // told of each commit, to index blocks for search once idle
	owner   string         // this writer's owner key, held as an advisory lock while it is connected
	ownerID int64
	c       *pgx.Conn // nil while disconnected (writer goroutine only)
	sids    map[string]int64
	// begun holds the uuid of each message this writer began and has not ended, so that its
	// blocks and its end land only in that message, never in another writer's at the same seq.
	begun map[msgbody.Key]string
	// lastBegun holds, per session, the uuid of the last message this writer began: a
	// message that follows it is stored only if it was (see parentCondition).
	lastBegun map[int64]string
	open      msgbody.OpenBodies // the blocks of the messages in begun, for their bodies
	bodies    msgbody.Builder
	// busyRetried counts the batches retried in silence as a deadlock's victim or after a
	// serialization failure (see Failed).
	busyRetried atomic.Int64
}

func newWriter(ctx context.Context, cfg *pgxpool.Config, channel string, indexer *searchIndexer) (*writer, error) {
	id := rand.Int64()
	w := &writer{cfg: cfg.ConnConfig.Copy(), channel: channel, indexer: indexer, ownerID: id, owner: strconv.FormatInt(id, 10),
		sids: map[string]int64{}, begun: map[msgbody.Key]string{}, lastBegun: map[int64]string{}, open: msgbody.OpenBodies{}}
	if err := w.connect(ctx); err != nil {
		return nil, err
	}
	w.q = commitqueue.New(w)
	w.q.Start()
	return w, nil
}

// connect opens the writing connection and takes the owner lock on it: a session whose
// owner's lock is free was left by a writer that is gone (see markInterrupted).
func (w *writer) connect(ctx context.Context) error {
	c, err := pgx.ConnectConfig(ctx, w.cfg)
	if err != nil {
		return storageError("connecting the writer", err)
	}
	if _, err := c.Exec(ctx, `SELECT pg_advisory_lock($1)`, w.ownerID); err != nil {
		c.Close(ctx)
		return storageError("taking the writer's owner lock", err)
	}
	w.c = c
	return nil
}

// enqueue queues ops; it never waits on the network. An imported record's body is put in
// its stored form on the caller's goroutine (msgbody.PrepareImported), not the writer's.
func (w *writer) enqueue(ops []session.Op) { w.q.Enqueue(msgbody.PrepareImported(ops)) }

// sync waits until every Op queued before the call is committed, or a fresh attempt fails.
func (w *writer) sync() error { return w.q.Sync() }

// flush is sync, then the conflicts it skipped: a PostgreSQL commit is durable.
func (w *writer) flush() error { return w.q.Flush() }

// takeError returns the error of the current run of failures once.
func (w *writer) takeError() error { return w.q.TakeError() }

// close commits what is queued, then stops the writer and closes its connection.
func (w *writer) close() error {
	err := w.q.Close()
	if w.c != nil {
		w.c.Close(context.Background())
	}
	return err
}

// Commit applies batch in one transaction (commit). When PostgreSQL refuses data of the
// batch, it is retried at once, op by op, skipping what is refused (see batchWriter.apply):
// not a failure callers hear of. A PostgreSQL commit is durable, so durable asks nothing
// more. A batch rolled back may have created sessions: their keys are not taken.
func (w *writer) Commit(batch []session.Op, durable, closing bool) (committed bool, err error) {
	careful := false
	for {
		err = w.commit(batch, careful)
		if err == nil {
			return true, nil
		}
		w.sids = map[string]int64{}
		if careful = refused(err); !careful {
			return false, err
		}
	}
}

// busyRetries is how many batches in a row PostgreSQL may roll back as a deadlock's victim
// (or for a serialization failure) before callers hear of it. Writers take their sessions'
// rows in one order (session_locks.go), so two of them never deadlock each other; before
// they did (1 of 2 runs of test 126, hosts recording accesses to each other's sessions).
// The retry stays as a guard against what the writer does not order: another program's
// transactions on the same rows, the search indexer's locks on messages. A batch rolled
// back whole and retried whole meets the same other transaction again only by chance.
const busyRetries = 3

// Failed has the writer retry a batch a deadlock or a serialization failure rolled back at
// once, in silence, busyRetries times, a few milliseconds apart (apart by chance, so that
// the two writers do not meet again); any other failure, or more of those, callers hear of,
// and the batch is retried after retryDelay.
func (w *writer) Failed(err error, run int) (report error, wait time.Duration) {
	if run <= busyRetries && errors.Is(err, session.ErrBusy) {
		w.busyRetried.Add(1)
		return nil, time.Duration(1+rand.IntN(20)) * time.Millisecond
	}
	return err, retryDelay
}

// commit applies a batch in one transaction and notifies the store's channel of each
// session it wrote; NOTIFY is delivered at commit, so a watcher never hears of a write it
// cannot read. A connection lost before or during the batch is opened again first.
func (w *writer) commit(batch []session.Op, careful bool) error {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	w.indexer.noteWriting(true)
	defer w.indexer.noteWriting(false)
	if w.c == nil || w.c.IsClosed() {
		w.c = nil
		if err := w.connect(ctx); err != nil {
			return err
		}
	}
	b := &batchWriter{w: w, c: conn{w.c, ctx}, careful: careful, sessions: map[int64]*touched{}, pending: &pgx.Batch{}}
	err := b.begin()
	if err == nil {
		err = b.apply(batch)
	}
	if err == nil {
		err = b.commit()
	}
	if err != nil {
		w.c.Exec(ctx, `ROLLBACK`) // a warning only when the transaction is over
		b.reopenEnded()
		if refused(err) {
			return err // retried at once, op by op (see batchWriter.apply)
		}
		return w.lost(storageError("writing", err))
	}
	w.indexer.noteCommit(b.searchable)
	return nil
}

// lost closes the connection after err when err says it is unusable, so the next attempt
// connects again, and returns err.
func (w *writer) lost(err error) error {
	if errors.Is(err, session.ErrStoreUnavailable) && w.c != nil {
		w.c.Close(context.Background())
		w.c = nil
	}
	return err
}

// ownUUID is the uuid of message key if this writer began it, else nil: no condition.
func (w *writer) ownUUID(key msgbody.Key) any {
	if uuid, ok := w.begun[key]; ok {
		return uuid
	}
	return nil
}

// forgetBegun drops the messages of session sid still open: they will not end here.
func (w *writer) forgetBegun(sid int64) {
	delete(w.lastBegun, sid)
	w.open.Forget(sid)
	for key := range w.begun {
		if key.SID == sid {
			delete(w.begun, key)
		}
	}
}

// noteDropped records an Op skipped for conflicting with what is stored.
func (w *writer) noteDropped(err error) {
	w.q.NoteDropped(fmt.Errorf("%w: a write was skipped: %v", session.ErrSessionConflict, err))
}
