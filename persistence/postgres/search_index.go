package postgres

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// indexIdle is how long the writer must have committed nothing, and the store served no
// read, before messages are indexed for search in the background: while chunks stream, the
// server's CPU goes to commits, and while a reader reads (W3's tails one after another), to
// its reads.
const indexIdle = 50 * time.Millisecond

// idleIndexSlice is how many messages one background slice indexes, so that it ends soon
// after the writer becomes busy again: computing a vector costs the server about 3 ms for
// one of W1's blocks (pg_stat_statements, on a loaded 2-core machine), and a message holds
// about two, so a slice about 100 ms.
const idleIndexSlice = 16

// waitedIndexSlice is the slice when a search waits for the index: it wants every message
// indexed anyway, and fewer statements cost fewer round trips; each slice brings its
// messages' bodies to the client, so not more than about 10 MB of the bench's.
const waitedIndexSlice = 1024

// textVector is the search vector of the SQL text expression text, as migration 2 defined
// it: the parser's lexemes plus those of the text with every run of non-alphanumerics made a
// space, so that "src/auth.ts" is found by "auth" as well as by itself.
func textVector(text string) string {
	return `to_tsvector('simple', ` + text + `) || to_tsvector('simple', regexp_replace(` + text + `, '[^[:alnum:]]+', ' ', 'g'))`
}

// A message waits to be indexed while its search vector is NULL and it has a body, or the
// search text of a message without one (its complete blocks, while it streams or when it
// ended without a whole body): messages_unindexed finds them without reading the table.
// The text of a message with a body is not kept: the indexer cuts it from the body, as a
// search cuts its snippets (search.go). A message without text gets an empty vector. The
// vector is stripped of its positions (strip), which halved the vectors of the bench's
// W2/W3 sessions (103 to 56 MB for half its messages, the largest part of the store after
// the bodies): search matches words and prefixes and ranks by them; it needs no positions.

// waitingSliceSQL selects at most $1 of the messages waiting to be indexed, which
// messages_unindexed holds, and locks them: rows another transaction holds are skipped when
// skipLocked, else waited for.
func waitingSliceSQL(skipLocked bool) string {
	lock := `FOR UPDATE`
	if skipLocked {
		lock += ` SKIP LOCKED`
	}
	return `SELECT m.sid, m.seq, m.body, m.layout, m.search_text FROM messages m
		WHERE m.search IS NULL AND (m.body IS NOT NULL OR m.search_text IS NOT NULL) LIMIT $1 ` + lock
}

// readWaitingByIndex is the setting, for the rest of indexSlice's transaction, that has the
// planner read the messages waiting through messages_unindexed. Left to itself it scanned the
// table whenever its statistics said many messages wait (taken during a large fill or
// import): a LIMIT over tens of thousands of rows looks cheap to reach by scanning. With
// nothing waiting, that scan read the whole table before every search, twice: 0.7 s at
// 20,000 sessions, 2.7 s at 100,000 (bench/README.md, issue 30, make bench-scale after round
// 8), where the index answers at once.
var readWaitingByIndex = forTransaction(setting{"enable_seqscan", "off"})

// indexSlice indexes, in one transaction of its own, at most slice messages waiting for it
// and returns how many it indexed. Rows another connection is indexing are skipped (SKIP
// LOCKED) or waited for (then, indexed meanwhile, passed over), so hosts indexing at once
// never fail nor index a row twice.
func indexSlice(c conn, slice int, skipLocked bool) (int64, error) {
	tx, err := c.q.(interface {
		Begin(ctx context.Context) (pgx.Tx, error)
	}).Begin(c.ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(c.ctx)
	var sids, seqs []int64
	var texts []*string
	t := conn{tx, c.ctx}
	err = t.queryBatch(readWaitingByIndex, batchQuery{sql: waitingSliceSQL(skipLocked), args: []any{slice},
		fn: func(row []any) error {
			text, err := storedSearchText(row[1].(int64), row[2], row[3], row[4])
			if err != nil {
				return err
			}
			sids, seqs, texts = append(sids, row[0].(int64)), append(seqs, row[1].(int64)), append(texts, textPtr(text))
			return nil
		}})
	if err != nil || len(sids) == 0 {
		return 0, err
	}
	if _, err := t.exec(`UPDATE messages m SET search = strip(coalesce(`+textVector("f.text")+`, ''::tsvector))
		FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS f(sid, seq, text) WHERE m.sid = f.sid AND m.seq = f.seq`,
		sids, seqs, texts); err != nil {
		return 0, err
	}
	return int64(len(sids)), tx.Commit(c.ctx)
}

// storedSearchText is the search text of message seq from its columns body, layout and
// search_text: cut from its body when it has one, else search_text; nil when it has none.
func storedSearchText(seq int64, body, layout, text any) (any, error) {
	b, ok := body.([]byte)
	if !ok {
		return text, nil
	}
	_, _, blocks, err := bodyBlocks(b, layout.([]byte), nil, seq)
	if err != nil {
		return nil, err
	}
	return messageSearchText(blocks), nil
}

// indexPending indexes every message waiting for search, whoever wrote it, so that a search
// run after it finds every message committed before the call. It first indexes what no other
// connection is indexing, then waits for the rest (slices that lock rows). Two hosts
// waiting on each other's rows are a deadlock PostgreSQL breaks by failing one statement,
// which is retried.
func indexPending(c conn) error {
	for _, skipLocked := range []bool{true, false} {
		for {
			n, err := indexSlice(c, waitedIndexSlice, skipLocked)
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "40P01" {
				continue
			}
			if err != nil {
				return storageError("indexing messages for search", err)
			}
			if n < waitedIndexSlice {
				break
			}
		}
	}
	return nil
}

// searchIndexer indexes messages for search on a pool connection of its own, once the writer
// has committed nothing, has no batch in flight and no read has run for indexIdle, in slices
// that stop as soon as the writer commits or starts a batch again or a read begins, as
// SQLite's indexer waits for an idle store.
// What it has not indexed yet, a search indexes before it queries (indexPending).
type searchIndexer struct {
	pool     *pgxpool.Pool
	pending  atomic.Bool   // messages may be waiting to be indexed
	writing  atomic.Int32  // batches in flight: while one is, the writer is not idle, however long since it last committed
	reading  atomic.Int64  // reads of the store running
	activity chan struct{} // the writer committed a batch, or a read began or ended
	ctx      context.Context
	stop     context.CancelFunc
	done     chan struct{}
}

// startSearchIndexer starts the background indexer of the store on pool. It looks for
// messages left waiting by a host that stopped before indexing them, once the store is idle.
func startSearchIndexer(pool *pgxpool.Pool) *searchIndexer {
	ctx, stop := context.WithCancel(context.Background())
	ix := &searchIndexer{pool: pool, activity: make(chan struct{}, 1), ctx: ctx, stop: stop, done: make(chan struct{})}
	ix.noteCommit(true)
	go ix.run()
	return ix
}

// noteCommit tells the indexer that the writer committed a batch, which stored messages to
// index when searchable is true. It never waits.
func (ix *searchIndexer) noteCommit(searchable bool) {
	if searchable {
		ix.pending.Store(true)
	}
	ix.noteActivity()
}

// readBegins tells the indexer that a read of the store began: it yields until the store
// has been idle for indexIdle after the read ends (readEnds). It never waits.
func (ix *searchIndexer) readBegins() {
	ix.reading.Add(1)
	ix.noteActivity()
}

// readEnds tells the indexer that a read readBegins announced ended.
func (ix *searchIndexer) readEnds() {
	ix.reading.Add(-1)
	ix.noteActivity()
}

// noteActivity wakes the indexer, or delays its next slice, without waiting.
func (ix *searchIndexer) noteActivity() {
	select {
	case ix.activity <- struct{}{}:
	default:
	}
}

// noteWriting tells the indexer that the writer started (true) or finished (false) a batch.
// A batch can take longer than indexIdle (W1's 2,000 messages arrive faster than the
// server stores them, so the writer's batches grow to hundreds of milliseconds): counted as
// idle, the writer had the indexer's slices compete with it for the server and lock the rows
// its token counts update, which wait for the slice's commit.
func (ix *searchIndexer) noteWriting(on bool) {
	if on {
		ix.writing.Add(1)
	} else {
		ix.writing.Add(-1)
	}
}

// busy reports whether the writer has a batch in flight or a read is running.
func (ix *searchIndexer) busy() bool { return ix.writing.Load() > 0 || ix.reading.Load() > 0 }

// close stops the indexer, cancelling the slice it is running (rolled back: its messages stay
// waiting), and waits for it.
func (ix *searchIndexer) close() {
	ix.stop()
	<-ix.done
}

func (ix *searchIndexer) run() {
	defer close(ix.done)
	quiet := time.NewTimer(indexIdle)
	quiet.Stop()
	for {
		select {
		case <-ix.activity:
		case <-ix.ctx.Done():
			return
		}
		if !ix.pending.Load() {
			continue
		}
		// Wait until the writer has committed nothing and no read has begun or ended for
		// indexIdle, with no batch in flight and no read running (a long one ends with activity).
		for idle := false; !idle; {
			quiet.Reset(indexIdle)
			select {
			case <-ix.activity: // Reset drops the timer's pending tick (Go 1.23 timers)
			case <-quiet.C:
				idle = !ix.busy()
			case <-ix.ctx.Done():
				return
			}
		}
		ix.indexWhileIdle()
	}
}

// indexWhileIdle indexes slices until none is waiting, the writer commits again or a read
// begins. A slice
// that fails leaves its messages waiting for the next search, which reports the error, or for
// the next commit of messages; it is not retried here, so a broken server is not hammered.
func (ix *searchIndexer) indexWhileIdle() {
	ix.pending.Store(false)
	c := conn{ix.pool, ix.ctx}
	for {
		n, err := indexSlice(c, idleIndexSlice, true)
		if err != nil || n < idleIndexSlice {
			return
		}
		if len(ix.activity) > 0 || ix.busy() {
			ix.pending.Store(true) // the store is busy again: go on once it is idle
			return
		}
	}
}
