package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sessionkeep/sessionkeep/session"
)

// openQuiet is how long after its warm-up an open still counts as a read for the search
// indexer, which begins no slice until the store has served no read for indexIdle after
// that: an app that opens a store reads right away, but on a loaded machine its first read
// can come more than indexIdle after the open returns, and a slice begun then (about 100 ms
// of the server's CPU) took the connection just warmed, leaving the read a cold one.
const openQuiet = 250 * time.Millisecond

// warmStatements are the reads an open of a session and its first reads run (the open's
// load, its scan for the last turn's tool calls, the read of a range of messages), with
// their generic plans as those reads run them, and arguments that match no session.
var warmStatements = []batchQuery{planGeneric,
	{loadStateSQL, []any{"", ""}, nil},
	{resumedSQL, []any{"", 1, session.TypeUser}, nil},
	{scanFromSQL, []any{"", 0, 0, true}, nil},
}

// warmUp readies the pool's connections for the reads an app makes first, in the background:
// each connection idle when it starts (those the open used) runs warmStatements in one batch,
// so that a fresh process's first read costs what its later ones do (its statements prepared,
// their plans made and the server's catalog caches filled: a fresh server connection's first
// read planned for 15-46 ms at loads of 20-25, and a fresh process's first W3 call took half as
// long with it at load 6). A read that comes while it runs waits for it (wait) rather than open
// a connection that no one readied. Behind a pooler in transaction mode
// (default_query_exec_mode exec or simple_protocol) nothing is prepared or kept, and the batch
// still fills the catalog caches of the server connection it lands on. The store counts it as a
// read, so that a Close while it runs returns at once and the warm-up closes the pool when it
// ends, as the last read of a closed store does.
type warmUp struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// startWarmUp starts readying pool's idle connections, and returns at once; ended is
// called when the warm-up ends, cancelled or not.
func startWarmUp(pool *pgxpool.Pool, ended func()) *warmUp {
	ctx, cancel := context.WithCancel(context.Background())
	w := &warmUp{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		defer ended()
		for _, c := range pool.AcquireAllIdle(ctx) {
			if ctx.Err() == nil {
				warmConn(ctx, c)
			}
			c.Release()
		}
	}()
	return w
}

// warmConn runs warmStatements on c in one batch. A failure is not reported: the reads it
// readies report their own.
func warmConn(ctx context.Context, c *pgxpool.Conn) {
	b := &pgx.Batch{}
	for _, st := range warmStatements {
		b.Queue(st.sql, st.args...)
	}
	c.SendBatch(ctx, b).Close()
}

// wait waits until the warm-up has ended; at once when there is none.
func (w *warmUp) wait() {
	if w != nil {
		<-w.done
	}
}

// stop cancels the warm-up, without waiting for it: a batch under way fails at once, and
// its connection is closed (pgx's cancel request) in the background.
func (w *warmUp) stop() { w.cancel() }
