package sqlite

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// directReaders is a Store's pool of idle direct read connections (package rawdb), which
// the hot reads use: the listing and the encoded messages of a restore or a tail.
type directReaders struct {
	idle []*rawdb.Conn
}

// readDirect runs fn on an idle direct read connection, opening one when none is idle.
// Each connection is used by one goroutine at a time: it is out of the pool while fn runs.
func (s *Store) readDirect(fn func(c *rawdb.Conn) error) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return session.ErrStoreClosed
	}
	var c *rawdb.Conn
	if n := len(s.direct.idle); n > 0 {
		c, s.direct.idle = s.direct.idle[n-1], s.direct.idle[:n-1]
	}
	s.mu.Unlock()
	if c == nil {
		var err error
		if c, err = rawdb.Open(s.path, sqlconn.BusyTimeoutMS); err != nil {
			return errors.Join(storeThere(s.path), sqlconn.Wrap("opening "+s.path+" to read", err))
		}
	}
	err := fn(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.direct.idle) >= maxIdleReaders {
		return errors.Join(err, c.Close())
	}
	s.direct.idle = append(s.direct.idle, c)
	return err
}

// close closes the idle direct read connections; the store is closed, so those in
// use are closed as their reads end.
func (d *directReaders) close() error {
	var err error
	for _, c := range d.idle {
		err = errors.Join(err, c.Close())
	}
	d.idle = nil
	return err
}

// queryDirect runs a statement on a direct connection and calls fn with it at each row,
// whose columns are valid only during the call.
func queryDirect(c *rawdb.Conn, query string, args []any, fn func(row *rawdb.Stmt) error) error {
	st, err := c.Prepare(query)
	if err != nil {
		return err
	}
	defer st.Reset()
	for i, a := range args {
		switch a := a.(type) {
		case string:
			err = st.BindText(i+1, a)
		case int64:
			err = st.BindInt64(i+1, a)
		case int:
			err = st.BindInt64(i+1, int64(a))
		default:
			err = fmt.Errorf("rawdb: cannot bind a %T", a) // a programming error: only these are used
		}
		if err != nil {
			return err
		}
	}
	for {
		more, err := st.Step()
		if !more || err != nil {
			return err
		}
		if err := fn(st); err != nil {
			return err
		}
	}
}
