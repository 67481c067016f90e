package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"net/url"
)

// conn is one SQLite connection with its prepared statements, used by one goroutine at a
// time. It talks to the driver directly: the writer runs many small statements per batch,
// and database/sql's per-call bookkeeping would cost more than SQLite itself.
type conn struct {
	raw   driver.Conn
	stmts map[string]driver.Stmt
}

// busyTimeoutMS is how long SQLite's busy handler waits for another connection's lock in
// one call; retryBusy and the writer retry such calls until busyBound. Kept short so that
// the bound is kept to within a second, and so that a caller of an operation that retries
// is not held in one call SQLite cannot give up early.
const busyTimeoutMS = 1000

// openConn opens a connection to the database file at path. Its pragmas take a lock when
// the file is new (switching it to WAL), so opening waits out other processes doing the
// same.
func openConn(path string) (*conn, error) {
	var c *conn
	err := retryBusy("opening "+path, func() (err error) {
		c, err = openConnOnce(path)
		return err
	})
	return c, err
}

// openConnOnce is one attempt of openConn; a lock it meets is an ErrBusy.
func openConnOnce(path string) (*conn, error) {
	q := url.Values{}
	for _, p := range []string{
		fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS),
		"journal_mode(WAL)",
		"synchronous(NORMAL)",
		"foreign_keys(OFF)",
		// Statement journals (a statement with triggers, inside a batch's transaction)
		// in memory, not in temporary files: their write calls were 14 % of an import's
		// CPU; the import of the real transcripts went from 250 to 230 ms of CPU.
		"temp_store(MEMORY)",
	} {
		q.Add("_pragma", p)
	}
	raw, err := storeDriver.Open("file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode())
	if err != nil {
		return nil, storageError("opening "+path, err)
	}
	return &conn{raw: raw, stmts: map[string]driver.Stmt{}}, nil
}

func (c *conn) stmt(query string) (driver.Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	s, err := c.raw.Prepare(query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	return s, nil
}

func namedValues(args []any) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		if n, ok := a.(int); ok {
			a = int64(n) // the driver takes only the types driver.Value names
		}
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return nv
}

// exec runs a statement that returns no rows.
func (c *conn) exec(query string, args ...any) (driver.Result, error) {
	s, err := c.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.(driver.StmtExecContext).ExecContext(context.Background(), namedValues(args))
}

// rowQuerier runs a statement and calls fn with each row's values, as conn.query does; a
// direct read connection (directValues) is one too, so that a read shared by both kinds of
// connection (scanFrom, lookupSID) is written once.
type rowQuerier interface {
	query(query string, args []any, fn func(row []driver.Value) error) error
}

// query runs a statement and calls fn, unless nil, with each row's values, which are
// valid only during the call.
func (c *conn) query(query string, args []any, fn func(row []driver.Value) error) error {
	s, err := c.stmt(query)
	if err != nil {
		return err
	}
	rows, err := s.(driver.StmtQueryContext).QueryContext(context.Background(), namedValues(args))
	if err != nil {
		return err
	}
	defer rows.Close()
	row := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(row); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if fn == nil {
			continue
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// close closes the statements and the connection.
func (c *conn) close() error {
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = nil
	return c.raw.Close()
}
