package sqlite

import (
	"fmt"

	"modernc.org/sqlite"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// checkpointPages is how many pages the writer commits to the WAL before the checkpointer
// copies the WAL into the database file. A checkpoint holds one of the Go runtime's two
// Ps (on two cores) for as long as it copies, and a call from JavaScript into Go waits for
// a free P: at 1,000 pages (SQLite's default) the event-loop delay's p99 during W1 rose
// from 5.4 to 6.1 ms (10 runs each, load 2.8); at 256 it is 5.3.
const checkpointPages = 256

// writerCheckpointPages is where the writer's own connection still checkpoints as it
// commits, should the checkpointer fall behind or fail: SQLite's default, about.
const writerCheckpointPages = 4 * checkpointPages

// walSizeLimit is the size the WAL file is cut back to (SQLite's journal_size_limit) when the
// writer starts it over after a checkpoint copied all of it. Without it the file keeps the
// largest size it ever reached, however short the WAL has been since: 18-20 MB after a few
// rounds of the shared bench's W1 with a reader beside it (bench/wal-bound.mjs).
const walSizeLimit = 4 << 20

// boundWAL sets, on the writer's connection c, where it checkpoints by itself and the size
// its WAL file is cut back to.
func boundWAL(c *sqlconn.Conn) error {
	for _, pragma := range []string{
		fmt.Sprintf("PRAGMA wal_autocheckpoint = %d", writerCheckpointPages),
		fmt.Sprintf("PRAGMA journal_size_limit = %d", walSizeLimit),
	} {
		if _, err := c.Exec(pragma); err != nil {
			return err
		}
	}
	return nil
}

// checkpointer copies the WAL into the database file on a connection of its own, beside the
// writer. SQLite's automatic checkpoint ran inside the writer's commits, and with it the
// copy and its two fsyncs (20-43 ms of fsync per W1 of the speed benchmark, which a CPU
// profile does not show): every Op queued behind it waited. A checkpoint does not block
// commits in WAL mode, so the writer goes on while it runs. A flush still makes the WAL
// durable itself (writer.syncToDisk): the checkpointer only keeps the WAL short.
type checkpointer struct {
	path    string
	pending int // pages committed since the last nudge (writer goroutine only)
	wake    chan struct{}
	done    chan struct{}
}

// startCheckpointer starts the checkpointer of the database file at path. Its connection is
// opened at the first checkpoint: a store that writes little never opens it.
func startCheckpointer(path string) *checkpointer {
	k := &checkpointer{path: path, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go k.run()
	return k
}

// committed notes the pages the writer's connection c wrote to the WAL since the last call,
// and wakes the checkpointer when they make checkpointPages. Called by the writer goroutine
// after each commit.
func (k *checkpointer) committed(c *sqlconn.Conn) {
	status, ok := c.Raw().(interface {
		Status(sqlite.DBStatusOp, bool) (int, int, error)
	})
	if !ok {
		return
	}
	pages, _, err := status.Status(sqlite.DBStatusCacheWrite, true)
	if err != nil {
		return
	}
	if k.pending += pages; k.pending < checkpointPages {
		return
	}
	k.pending = 0
	select {
	case k.wake <- struct{}{}:
	default: // a checkpoint is waiting to run already
	}
}

// run checkpoints each time it is woken, until stop. A checkpoint that meets a lock or
// fails is left to the next one, and to the writer's own (writerCheckpointPages).
func (k *checkpointer) run() {
	defer close(k.done)
	var c *sqlconn.Conn
	for range k.wake {
		if c == nil {
			var err error
			if c, err = sqlconn.Open(k.path); err != nil {
				c = nil
				continue
			}
		}
		c.Query("PRAGMA wal_checkpoint(PASSIVE)", nil, nil)
	}
	if c != nil {
		c.Close()
	}
}

// stop ends the checkpointer once a checkpoint running has finished. The writer calls it
// after its last commit, before it closes its own connection.
func (k *checkpointer) stop() {
	close(k.wake)
	<-k.done
}
