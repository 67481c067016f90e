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
// body_pending, as many of each as the argument of those marked limited, and forget them
// (see searchQueueMigration and bodiesOnlyMigration). The texts pass through a temporary
// FTS5 table of their own, whose terms (search_slice_terms: this slice's alone) are added
// to search_terms, which matchExpression expands prefixes from.
var indexSliceStatements = []struct {
	sql     string
	limited bool
}{
	{sql: `CREATE TEMP TABLE IF NOT EXISTS search_slice_text (id INTEGER PRIMARY KEY, of_block INTEGER NOT NULL, rid INTEGER NOT NULL, text TEXT)`},
	{sql: `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_slice USING fts5(text, content='search_slice_text', content_rowid='id',
		tokenize='unicode61 remove_diacritics 2')`},
	{sql: `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_slice_terms USING fts5vocab(temp, search_slice, row)`},
	{sql: `INSERT INTO temp.search_slice_text(of_block, rid, text)
		SELECT 1, bid, text FROM block_search_text
		WHERE bid IN (SELECT bid FROM search_pending ORDER BY bid LIMIT ?)`, limited: true},
	{sql: `INSERT INTO temp.search_slice_text(of_block, rid, text)
		SELECT 0, mid, text FROM body_search_text
		WHERE mid IN (SELECT mid FROM body_pending ORDER BY mid LIMIT ?)`, limited: true},
	{sql: `INSERT INTO message_search(rowid, text) SELECT rid, text FROM temp.search_slice_text WHERE of_block = 1`},
	{sql: `INSERT INTO body_search(rowid, text) SELECT rid, text FROM temp.search_slice_text WHERE of_block = 0`},
	{sql: `INSERT INTO temp.search_slice(search_slice) VALUES ('rebuild')`},
	{sql: `INSERT OR IGNORE INTO search_terms(term) SELECT term FROM temp.search_slice_terms`},
	{sql: `DELETE FROM temp.search_slice_text`},
	{sql: `INSERT INTO temp.search_slice(search_slice) VALUES ('delete-all')`},
	{sql: `DELETE FROM search_pending WHERE bid IN (SELECT bid FROM search_pending ORDER BY bid LIMIT ?)`, limited: true},
	{sql: `DELETE FROM body_pending WHERE mid IN (SELECT mid FROM body_pending ORDER BY mid LIMIT ?)`, limited: true},
}

// indexQueued indexes, on c, the first limit blocks and bodies waiting for search (all for
// -1), inside the caller's transaction.
func indexQueued(c *sqlconn.Conn, limit int) error {
	for _, stmt := range indexSliceStatements {
		args := []any{}
		if stmt.limited {
			args = append(args, limit)
		}
		if _, err := c.Exec(stmt.sql, args...); err != nil {
			return err
		}
	}
	return nil
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
	if err := indexQueued(w.c, slice); err != nil {
		w.c.Exec("ROLLBACK")
		return true, sqlconn.Wrap("indexing for search", err)
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
