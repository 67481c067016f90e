package sqlite

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"unsafe"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
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
		if c, err = rawdb.Open(s.path, busyTimeoutMS); err != nil {
			return errors.Join(storeThere(s.path), storageError("opening "+s.path+" to read", err))
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

// closeDirect closes the idle direct read connections; the store is closed, so those in
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

// stmtDecoder reads the columns of a direct connection's row as rowDecoder reads the
// driver's: TEXT and BLOB are text, only INTEGER is an integer, and a column of another
// type is noted by name in bad.
type stmtDecoder struct {
	row *rawdb.Stmt
	bad []string
	// inPlace makes Text return strings over SQLite's memory, valid only until the next
	// row: for a listing encoded row by row, where copying every id and title was a
	// tenth of the listing's Go time.
	inPlace bool
}

func (d *stmtDecoder) Text(i int, name string) string {
	if t := d.row.Type(i); t == rawdb.Text || t == rawdb.Blob {
		b := d.row.Bytes(i)
		if d.inPlace {
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
		return string(b)
	}
	d.bad = append(d.bad, name)
	return ""
}

func (d *stmtDecoder) OptionalText(i int, name string) string {
	if d.row.Type(i) == rawdb.Null {
		return ""
	}
	return d.Text(i, name)
}

func (d *stmtDecoder) Integer(i int, name string) int64 {
	if d.row.Type(i) == rawdb.Integer {
		return d.row.Int64(i)
	}
	d.bad = append(d.bad, name)
	return 0
}

func (d *stmtDecoder) OptionalInteger(i int, name string) *int64 {
	if d.row.Type(i) == rawdb.Null {
		return nil
	}
	v := d.Integer(i, name)
	return &v
}

// directValues gives a direct connection the driver's rows (rowQuerier), for the reads
// that are not hot but run inside one that is, on its connection and snapshot: each
// column becomes a driver.Value of its own, as the driver makes it (INTEGER int64, FLOAT
// float64, TEXT string, BLOB a copied []byte, NULL nil).
type directValues struct{ c *rawdb.Conn }

func (d directValues) query(query string, args []any, fn func(row []driver.Value) error) error {
	var values []driver.Value
	return queryDirect(d.c, query, args, func(row *rawdb.Stmt) error {
		if values == nil {
			values = make([]driver.Value, row.ColumnCount())
		}
		for i := range values {
			switch row.Type(i) {
			case rawdb.Integer:
				values[i] = row.Int64(i)
			case rawdb.Float:
				values[i] = row.Float64(i)
			case rawdb.Text:
				values[i] = string(row.Bytes(i))
			case rawdb.Blob:
				values[i] = []byte(nil) // the driver's value for an empty BLOB, which reads treat as none
				if b := row.Bytes(i); len(b) > 0 {
					values[i] = bytes.Clone(b)
				}
			default:
				values[i] = nil
			}
		}
		return fn(values)
	})
}

// columnBytes is asBytes of a direct connection's column: its bytes in SQLite's memory, nil
// for NULL and, as the driver gives them, for an empty BLOB.
func columnBytes(row *rawdb.Stmt, i int) []byte {
	switch row.Type(i) {
	case rawdb.Text:
		return row.Bytes(i)
	case rawdb.Blob:
		if b := row.Bytes(i); len(b) > 0 {
			return b
		}
	}
	return nil
}
