package postgres

import (
	"github.com/jackc/pgx/v5"
)

// The writer sends the statements of a batch that no later Op needs an answer from (most of
// them: a message begun, its blocks, its end, the listings) to the server as one pipeline,
// one round trip for the lot instead of one per statement; a statement whose answer is
// needed (a session's key, a new row's id) sends what is queued first, then runs on its own.
// On loopback this is the difference between 1,300 and several thousand messages a second;
// over a real network it is most of the writer's time. Blocks go in one statement per
// pipeline (blocks_batch.go), and a message begun and ended in the batch in one insert
// (message_once.go), since the server's cost per statement is most of what is left. The
// transaction's BEGIN goes with the first pipeline and its COMMIT with the last (the
// listings, the NOTIFY): a commit of the 8 writers' kind (a turn) is two round trips, not
// four.

// begin queues the BEGIN of the batch's transaction.
func (b *batchWriter) begin() error { return b.queue(nil, `BEGIN`) }

// commit queues the COMMIT after what is queued and sends the lot. When a statement before
// it fails, PostgreSQL skips the rest of the pipeline, the COMMIT included, and the
// transaction waits for the ROLLBACK the writer sends after any failure. What goes with the
// COMMIT is read without a callback that can fail (the rows read, queueRows, are the
// sessions' locks, in the first pipeline): a failure it reports comes from the server or
// the connection, never from reading the result of a transaction the server committed.
func (b *batchWriter) commit() error {
	b.queueBlocks() // nothing gathered may follow the COMMIT
	if b.careful {
		if err := b.send(); err != nil { // a careful batch runs its COMMIT at once
			return err
		}
	}
	if err := b.queue(nil, `COMMIT`); err != nil {
		return err
	}
	return b.send()
}

// queue adds a statement to the pipeline; onDone, unless nil, is given the rows it changed
// once it has run. A careful batch runs it at once instead, so that its savepoint can catch
// a refusal.
func (b *batchWriter) queue(onDone func(changed int64), sql string, args ...any) error {
	if b.careful {
		n, err := b.c.exec(sql, args...)
		if err == nil && onDone != nil {
			onDone(n)
		}
		return err
	}
	b.queueMessages() // the statement may need them
	b.pending.Queue(sql, storableArgs(args)...)
	b.results = append(b.results, pipelined{done: onDone})
	return nil
}

// queueRows adds a statement that returns rows to the pipeline; fn is called with each row
// once it has run. A careful batch runs it at once instead.
func (b *batchWriter) queueRows(fn func(row []any) error, sql string, args ...any) error {
	if b.careful {
		return b.c.query(sql, args, fn)
	}
	b.queueMessages() // the statement may need them
	b.pending.Queue(sql, storableArgs(args)...)
	b.results = append(b.results, pipelined{rows: func(rows pgx.Rows) error { return eachRow(rows, fn) }})
	return nil
}

// pipelined is what is done with the result of a statement of the pipeline: done, unless
// nil, is given the rows it changed; rows, for a statement that returns rows, reads them.
type pipelined struct {
	done func(changed int64)
	rows func(rows pgx.Rows) error
}

// send runs the queued statements in one round trip and hands each its result. The first
// failure fails the batch (PostgreSQL aborts the transaction there).
func (b *batchWriter) send() error {
	b.queueBlocks()
	if b.pending.Len() == 0 {
		return nil
	}
	results := b.w.c.SendBatch(b.c.ctx, b.pending)
	var failed error
	for _, p := range b.results {
		if err := p.read(results); err != nil && failed == nil {
			failed = err
		}
	}
	closed := results.Close()
	b.pending, b.results = &pgx.Batch{}, nil
	if failed != nil {
		return failed
	}
	return closed
}

// read reads the result of its statement from results.
func (p pipelined) read(results pgx.BatchResults) error {
	if p.rows != nil {
		rows, err := results.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		return p.rows(rows)
	}
	tag, err := results.Exec()
	if err == nil && p.done != nil {
		p.done(tag.RowsAffected())
	}
	return err
}

// exec runs a statement now, after what is queued, and returns the rows it changed.
func (b *batchWriter) exec(sql string, args ...any) (int64, error) {
	if err := b.send(); err != nil {
		return 0, err
	}
	return b.c.exec(sql, args...)
}

// query runs a statement now, after what is queued, calling fn with each row.
func (b *batchWriter) query(sql string, args []any, fn func(row []any) error) error {
	if err := b.send(); err != nil {
		return err
	}
	return b.c.query(sql, args, fn)
}
