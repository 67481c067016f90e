package sqlconn

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"net/url"
)

// Conn is one SQLite connection of the store with its prepared statements, used by one
// goroutine at a time. It talks to the driver directly: the writer runs many small
// statements per batch, and database/sql's per-call bookkeeping would cost more than SQLite
// itself.
type Conn struct {
	raw   driver.Conn
	stmts map[string]driver.Stmt
}

// BusyTimeoutMS is how long SQLite's busy handler waits for another connection's lock in
// one call; the store retries such calls until its own bound. Kept short so that the bound
// is kept to within a second, and so that a caller of an operation that retries is not
// held in one call SQLite cannot give up early.
const BusyTimeoutMS = 1000

// Open opens a connection to the database file at path. Its pragmas take a lock when the
// file is new (switching it to WAL): a lock it meets is an ErrBusy, for the caller to retry.
func Open(path string) (*Conn, error) {
	q := url.Values{}
	for _, p := range []string{
		fmt.Sprintf("busy_timeout(%d)", BusyTimeoutMS),
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
		return nil, Wrap("opening "+path, err)
	}
	return &Conn{raw: raw, stmts: map[string]driver.Stmt{}}, nil
}

// Raw is the driver's connection under c.
func (c *Conn) Raw() driver.Conn { return c.raw }

// stmt is the statement of query, prepared at its first use and kept until Close.
func (c *Conn) stmt(query string) (driver.Stmt, error) {
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

// Exec runs a statement that returns no rows.
func (c *Conn) Exec(query string, args ...any) (driver.Result, error) {
	s, err := c.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.(driver.StmtExecContext).ExecContext(context.Background(), namedValues(args))
}

// Query runs a statement and calls fn, unless nil, with each row's values, which are
// valid only during the call.
func (c *Conn) Query(query string, args []any, fn func(row []driver.Value) error) error {
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

// Close closes the statements and the connection.
func (c *Conn) Close() error {
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = nil
	return c.raw.Close()
}
