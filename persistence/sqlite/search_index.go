package sqlite

import (
	"database/sql/driver"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// indexIdle is how long the writer must have had nothing to commit before it indexes
// blocks for search in the background; while chunks stream, it never does.
const indexIdle = 50 * time.Millisecond

// indexSlice is how many blocks the writer indexes in one transaction when idle, so that
// a batch of Ops that arrives meanwhile waits for one slice at most (a few milliseconds).
const indexSlice = 128

// waitedIndexSlice is the slice when a search or a bulk import waits for the index: it
// wants every block indexed anyway, and FTS5 writes a segment per slice that it must then
// merge. On the real transcripts (1,346 blocks) this took indexing after an import from
// 55–87 ms to 42–46 ms, and the store 2 % smaller.
const waitedIndexSlice = 4096

// indexSliceStatements index the first blocks noted in search_pending and bodies noted in
// body_pending, as many of each as their argument, and forget them (see
// searchQueueMigration and bodiesOnlyMigration).
var indexSliceStatements = []string{
	`INSERT INTO message_search(rowid, text)
		SELECT bid, text FROM block_search_text
		WHERE bid IN (SELECT bid FROM search_pending ORDER BY bid LIMIT ?)`,
	`DELETE FROM search_pending WHERE bid IN (SELECT bid FROM search_pending ORDER BY bid LIMIT ?)`,
	`INSERT INTO body_search(rowid, text)
		SELECT mid, text FROM body_search_text
		WHERE mid IN (SELECT mid FROM body_pending ORDER BY mid LIMIT ?)`,
	`DELETE FROM body_pending WHERE mid IN (SELECT mid FROM body_pending ORDER BY mid LIMIT ?)`,
}

// indexBehind reports whether blocks are waiting to be indexed.
func (w *writer) indexBehind() (bool, error) {
	behind := false
	err := w.c.Query(`SELECT EXISTS (SELECT 1 FROM search_pending) OR EXISTS (SELECT 1 FROM body_pending)`, nil, func(row []driver.Value) error {
		behind = row[0] == int64(1)
		return nil
	})
	return behind, err
}

// indexNextSlice indexes one slice of the blocks waiting for search in its own transaction
// and reports whether more are waiting.
func (w *writer) indexNextSlice() (more bool, err error) {
	w.q.Lock()
	slice := indexSlice
	if w.indexWaiters > 0 {
		slice = waitedIndexSlice
	}
	w.q.Unlock()
	if _, err := w.c.Exec("BEGIN IMMEDIATE"); err != nil {
		return true, sqlconn.Wrap("starting to index for search", err)
	}
	for _, stmt := range indexSliceStatements {
		if _, err := w.c.Exec(stmt, slice); err != nil {
			w.c.Exec("ROLLBACK")
			return true, sqlconn.Wrap("indexing for search", err)
		}
	}
	if _, err := w.c.Exec("COMMIT"); err != nil {
		w.c.Exec("ROLLBACK")
		return true, sqlconn.Wrap("committing the search index", err)
	}
	more, err = w.indexBehind()
	return more, sqlconn.Wrap("reading the search queue", err)
}

// catchUpIndex waits until every block committed before the call is indexed for search,
// so that a search finds everything written before it. It looks at the queue itself rather
// than trusting what this writer knows: another process may have written blocks.
func (w *writer) catchUpIndex() error {
	q := w.q
	q.Lock()
	defer q.Unlock()
	if q.Closing() {
		return nil // the next process that searches indexes what is left
	}
	target := q.Queued()
	w.indexWaiters++
	defer func() { w.indexWaiters-- }()
	w.indexPending, w.indexErr = true, nil
	q.Urge()
	for (q.Committed() < target || w.indexPending) && q.Err() == nil && w.indexErr == nil && !q.Stopped() {
		q.Wait()
	}
	if w.indexErr != nil {
		return w.indexErr
	}
	return q.Status(q.Committed(), target)
}

// IndexForSearch waits until every block committed so far is indexed for search. A bulk
// import calls it, so that the first search after it does not pay for the whole import.
func (s *Store) IndexForSearch() error {
	return s.w.catchUpIndex()
}
