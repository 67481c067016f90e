package rawdb

import (
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// The types of a column's value, as Type returns them.
const (
	Integer = sqlite3.SQLITE_INTEGER
	Float   = sqlite3.SQLITE_FLOAT
	Text    = sqlite3.SQLITE_TEXT
	Blob    = sqlite3.SQLITE_BLOB
	Null    = sqlite3.SQLITE_NULL
)

// Stmt is a prepared statement of a Conn. A use binds its parameters, steps through its
// rows and ends with Reset, which ends the read transaction it holds.
//
// Parameters stay bound between uses, and binding a parameter the integer it holds already
// is skipped: SQLite expires a statement when a parameter its planner looked at is bound
// again (`seq >= ?` beside `ORDER BY seq`, the tail's query), and the next step prepares it
// anew, 10–40 µs of a 0.5 ms tail.
type Stmt struct {
	c      *Conn
	p      uintptr
	params []param // by parameter number - 1, as far as bound
}

// param is what a parameter of a Stmt holds.
type param struct {
	isInt bool
	i     int64
	text  uintptr // the C copy of bound text, which SQLite reads in place; 0 if none
}

// param returns parameter i's record, growing the records to hold it.
func (s *Stmt) param(i int) *param {
	for len(s.params) < i {
		s.params = append(s.params, param{})
	}
	return &s.params[i-1]
}

// bound records what parameter i now holds, freeing the text it held before.
func (s *Stmt) bound(i int, now param) {
	p := s.param(i)
	if p.text != 0 {
		libc.Xfree(s.c.tls, p.text)
	}
	*p = now
}

// BindInt64 binds v to parameter i (from 1).
func (s *Stmt) BindInt64(i int, v int64) error {
	if p := s.param(i); p.isInt && p.i == v {
		return nil
	}
	if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i), v); rc != sqlite3.SQLITE_OK {
		return s.c.errorOf(rc, "binding a parameter")
	}
	s.bound(i, param{isInt: true, i: v})
	return nil
}

// BindText binds v to parameter i (from 1). SQLite reads it in place, so its C copy lives
// until the parameter is bound again or the statement finalized.
func (s *Stmt) BindText(i int, v string) error {
	p, err := s.c.malloc(len(v) + 1)
	if err != nil {
		return err
	}
	copy(unsafe.Slice((*byte)(at(p)), len(v)), v)
	if rc := sqlite3.Xsqlite3_bind_text(s.c.tls, s.p, int32(i), p, int32(len(v)), 0); rc != sqlite3.SQLITE_OK {
		libc.Xfree(s.c.tls, p)
		return s.c.errorOf(rc, "binding a parameter")
	}
	s.bound(i, param{text: p})
	return nil
}

// Step advances to the next row: true while there is one, false at the end.
func (s *Stmt) Step() (bool, error) {
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.errorOf(rc, "reading")
	}
}

// Reset ends the statement's use: it releases its read transaction. Its parameters stay
// bound (see Stmt).
func (s *Stmt) Reset() { sqlite3.Xsqlite3_reset(s.c.tls, s.p) }

// finalize frees the statement and the text bound to it.
func (s *Stmt) finalize() {
	sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	for i := range s.params {
		s.bound(i+1, param{})
	}
}

// ColumnCount returns the number of columns of the statement's rows.
func (s *Stmt) ColumnCount() int { return int(sqlite3.Xsqlite3_column_count(s.c.tls, s.p)) }

// Type returns the type of column i's value in the current row (Integer, Text, …).
func (s *Stmt) Type(i int) int { return int(sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i))) }

// Int64 returns column i of the current row as an integer.
func (s *Stmt) Int64(i int) int64 { return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i)) }

// Float64 returns column i of the current row as a float.
func (s *Stmt) Float64(i int) float64 {
	return sqlite3.Xsqlite3_column_double(s.c.tls, s.p, int32(i))
}

// Bytes returns the bytes of a TEXT or BLOB column i of the current row, in SQLite's memory:
// valid until the next Step or Reset, and not to be written. An empty value is empty, not
// nil; NULL is nil.
func (s *Stmt) Bytes(i int) []byte {
	var p uintptr
	if s.Type(i) == Blob {
		p = sqlite3.Xsqlite3_column_blob(s.c.tls, s.p, int32(i))
	} else {
		p = sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	}
	n := int(sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i)))
	if p == 0 {
		if s.Type(i) == Null {
			return nil
		}
		return []byte{}
	}
	return unsafe.Slice((*byte)(at(p)), n)
}
