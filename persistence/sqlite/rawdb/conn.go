package rawdb

import (
	"fmt"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// Conn is one read-only connection with its prepared statements. A Conn, and its
// statements, may be used by one goroutine at a time.
type Conn struct {
	tls   *libc.TLS
	db    uintptr
	stmts map[string]*Stmt
}

// Open opens the database file at path read-only. busyTimeoutMS is how long a step waits
// for another connection's lock before it fails with SQLITE_BUSY.
func Open(path string, busyTimeoutMS int) (*Conn, error) {
	c := &Conn{tls: libc.NewTLS(), stmts: map[string]*Stmt{}}
	rc, err := c.open(path)
	if err == nil && rc != sqlite3.SQLITE_OK {
		err = c.errorOf(rc, "opening "+path)
	}
	if err != nil {
		c.Close() // SQLite may allocate the handle even when the open fails
		return nil, err
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, int32(busyTimeoutMS))
	return c, nil
}

// open calls sqlite3_open_v2 and keeps the handle it gives, even with a failure's code.
func (c *Conn) open(path string) (int32, error) {
	name, err := libc.CString(path)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, name)
	out, err := c.malloc(int(unsafe.Sizeof(uintptr(0))))
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(c.tls, out)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, out, sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_NOMUTEX, 0)
	c.db = *(*uintptr)(at(out))
	return rc, nil
}

// Prepare returns the statement for query, compiled at its first use and kept until Close.
// Its result is not reset: the caller ends each use with Reset.
func (c *Conn) Prepare(query string) (*Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	sql, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, sql)
	out, err := c.malloc(int(unsafe.Sizeof(uintptr(0))))
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, out)
	rc := sqlite3.Xsqlite3_prepare_v3(c.tls, c.db, sql, -1, sqlite3.SQLITE_PREPARE_PERSISTENT, out, 0)
	if rc != sqlite3.SQLITE_OK {
		return nil, c.errorOf(rc, "preparing "+query)
	}
	s := &Stmt{c: c, p: *(*uintptr)(at(out))}
	c.stmts[query] = s
	return s, nil
}

// Close finalizes the statements and closes the connection.
func (c *Conn) Close() error {
	if c.tls == nil {
		return nil
	}
	for _, s := range c.stmts {
		s.finalize()
	}
	c.stmts = nil
	var err error
	if c.db != 0 {
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.errorOf(rc, "closing")
		}
		c.db = 0
	}
	c.tls.Close()
	c.tls = nil
	return err
}

func (c *Conn) malloc(n int) (uintptr, error) {
	p := libc.Xmalloc(c.tls, types.Size_t(n))
	if p == 0 {
		return 0, fmt.Errorf("rawdb: cannot allocate %d bytes", n)
	}
	return p, nil
}

// errorOf is the Error of result code rc, with the connection's message for it.
func (c *Conn) errorOf(rc int32, what string) error {
	msg := libc.GoString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	if c.db != 0 {
		if ext := sqlite3.Xsqlite3_extended_errcode(c.tls, c.db); ext == rc || ext&0xff == rc&0xff {
			rc = ext
			msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
		}
	}
	return &Error{code: int(rc), msg: what + ": " + msg}
}

// Error is a SQLite error: its (extended) result code and message.
type Error struct {
	code int
	msg  string
}

func (e *Error) Error() string { return e.msg }

// Code returns SQLite's extended result code, as modernc.org/sqlite's Error does.
func (e *Error) Code() int { return e.code }

// at returns the address p of SQLite's memory (the C heap modernc.org/libc allocates,
// outside Go's) as a pointer. unsafe.Add, not a conversion, says it is not a Go pointer
// kept in a uintptr, which is what go vet's unsafeptr check guards against.
func at(p uintptr) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(nil), p) }
