package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/persistence/commitqueue"
	"github.com/sessionkeep/sessionkeep/session"
)

// commitWindow is how long the writer gathers Ops after the first one arrives before it
// commits them together, unless a read, a Flush or Close wants them at once: as on SQLite,
// a stream of chunks costs one transaction per window, not one per chunk. With a loopback
// commit of about a millisecond it keeps a completed block well inside the 50 ms bound.
const commitWindow = 3 * time.Millisecond

// retryDelay is how long the writer waits before retrying a batch that failed (the server
// is down, the network is cut): the batch stays queued in memory, nothing is dropped.
const retryDelay = 100 * time.Millisecond

// closeAttempts is how many times Close tries to commit what is queued, once callers have
// been told of a failure, before it gives up and reports the error.
const closeAttempts = 3

// writer owns the store's writing connection. Ops queue in memory; its goroutine takes
// everything queued so far and applies it in one transaction (group commit).
type writer struct {
	cfg     *pgx.ConnConfig
	channel string
	indexer *searchIndexer // told of each commit, to index blocks for search once idle
	owner   string         // this writer's owner key, held as an advisory lock while it is connected
	ownerID int64
	c       *pgx.Conn // nil while disconnected (writer goroutine only)
	sids    map[string]int64
	// begun holds the uuid of each message this writer began and has not ended, so that its
	// blocks and its end land only in that message, never in another writer's at the same seq.
	begun map[messageKey]string
	// lastBegun holds, per session, the uuid of the last message this writer began: a
	// message that follows it is stored only if it was (see parentCondition).
	lastBegun map[int64]string

	mu      sync.Mutex
	changed *sync.Cond
	queue   []session.Op
	queued  uint64
	// queuedRecords is how many Ops had been queued at the last one a read of records
	// waits for (sync_records.go).
	queuedRecords uint64
	committed     uint64
	err           error // why the last attempt failed; nil after a commit
	errSeen       bool
	attempts      uint64
	dropped       error // Ops skipped for conflicting with what is stored, reported by Flush
	closing       bool
	stopped       bool
	wake          chan struct{}
	hurry         chan struct{}
}

func newWriter(ctx context.Context, cfg *pgxpool.Config, channel string, indexer *searchIndexer) (*writer, error) {
	id := rand.Int64()
	w := &writer{cfg: cfg.ConnConfig.Copy(), channel: channel, indexer: indexer, ownerID: id, owner: strconv.FormatInt(id, 10),
		sids: map[string]int64{}, begun: map[messageKey]string{}, lastBegun: map[int64]string{}, wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1)}
	w.changed = sync.NewCond(&w.mu)
	if err := w.connect(ctx); err != nil {
		return nil, err
	}
	go w.run()
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

// enqueue queues ops; it never waits on the network.
func (w *writer) enqueue(ops []session.Op) {
	w.mu.Lock()
	if through, ok := commitqueue.RecordsThrough(w.queued, ops); ok {
		w.queuedRecords = through
	}
	w.queue = append(w.queue, ops...)
	w.queued += uint64(len(ops))
	w.mu.Unlock()
	w.signal()
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

// sync waits until every Op queued before the call is committed, or a fresh attempt fails.
func (w *writer) sync() error {
	return w.syncTo(func() uint64 { return w.queued })
}

// syncTo waits until the Ops counted by target (read with mu held) are committed, or a
// fresh attempt fails.
func (w *writer) syncTo(counted func() uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return session.ErrStoreClosed
	}
	target, tried := counted(), w.attempts
	if w.committed < target {
		w.urge()
	}
	return w.waitUntil(target, tried)
}

// flush is sync, then the conflicts it skipped: a PostgreSQL commit is durable.
func (w *writer) flush() error {
	if err := w.sync(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	dropped := w.dropped
	w.dropped = nil
	return dropped
}

// waitUntil waits, with mu held, until committed reaches target, an attempt made after
// tried fails, or the writer stops.
func (w *writer) waitUntil(target, tried uint64) error {
	for w.committed < target && !(w.err != nil && w.attempts > tried) && !w.stopped {
		w.changed.Wait()
	}
	switch {
	case w.committed >= target:
		return nil
	case w.err != nil:
		return w.err
	default:
		return session.ErrStoreClosed
	}
}

// takeError returns the error of the current run of failures once.
func (w *writer) takeError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil || w.errSeen {
		return nil
	}
	w.errSeen = true
	return w.err
}

// close commits what is queued, then stops the writer and closes its connection.
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
	return err
}

// run is the writer goroutine.
func (w *writer) run() {
	window := time.NewTimer(commitWindow)
	window.Stop()
	failures := 0
	careful := false // the last attempt failed on data PostgreSQL refuses
	for {
		switch {
		case careful:
			// retried at once, op by op
		case failures > 0:
			time.Sleep(retryDelay)
		default:
			<-w.wake
			window.Reset(commitWindow)
			select {
			case <-w.hurry:
				window.Stop()
			case <-window.C:
			}
		}
		w.mu.Lock()
		batch, target, closing := w.queue, w.queued, w.closing
		w.queue = nil
		w.mu.Unlock()

		err := w.commit(batch, careful)
		careful = refused(err)

		w.mu.Lock()
		if careful {
			// Not a failure callers hear of: the next attempt skips what was refused.
			w.sids = map[string]int64{}
			w.queue = append(batch, w.queue...)
			w.mu.Unlock()
			continue
		}
		w.attempts++
		if err == nil {
			failures = 0
			w.committed, w.err = target, nil
		} else {
			failures++
			// The rolled-back batch may have created sessions: their keys are not taken.
			w.sids = map[string]int64{}
			w.queue = append(batch, w.queue...)
			if w.err == nil {
				w.errSeen = false
			}
			w.err = err
		}
		done := closing && (err == nil || failures >= closeAttempts)
		w.stopped = done
		w.changed.Broadcast()
		w.mu.Unlock()
		if done {
			if w.c != nil {
				w.c.Close(context.Background())
			}
			return
		}
	}
}

// commit applies a batch in one transaction and notifies the store's channel of each
// session it wrote; NOTIFY is delivered at commit, so a watcher never hears of a write it
// cannot read. A connection lost before or during the batch is opened again first.
func (w *writer) commit(batch []session.Op, careful bool) error {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	if w.c == nil || w.c.IsClosed() {
		w.c = nil
		if err := w.connect(ctx); err != nil {
			return err
		}
	}
	tx, err := w.c.Begin(ctx)
	if err != nil {
		return w.lost(storageError("starting a write", err))
	}
	b := &batchWriter{w: w, tx: tx, c: conn{tx, ctx}, careful: careful, sessions: map[int64]*touched{}, pending: &pgx.Batch{}}
	if err := b.apply(batch); err != nil {
		tx.Rollback(ctx)
		if refused(err) {
			return err // retried at once, op by op (see batchWriter.apply)
		}
		return w.lost(storageError("writing", err))
	}
	if err := tx.Commit(ctx); err != nil {
		return w.lost(storageError("committing", err))
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
func (w *writer) ownUUID(key messageKey) any {
	if uuid, ok := w.begun[key]; ok {
		return uuid
	}
	return nil
}

// forgetBegun drops the messages of session sid still open: they will not end here.
func (w *writer) forgetBegun(sid int64) {
	delete(w.lastBegun, sid)
	for key := range w.begun {
		if key.sid == sid {
			delete(w.begun, key)
		}
	}
}

// noteDropped records an Op skipped for conflicting with what is stored.
func (w *writer) noteDropped(err error) {
	w.mu.Lock()
	w.dropped = fmt.Errorf("%w: a write was skipped: %v", session.ErrSessionConflict, err)
	w.mu.Unlock()
}
