package postgres

import (
	"strconv"
	"strings"
)

// statementRunner is what the context cache's statements run on: a read's conn, or the
// writer's batchWriter (which sends what it has queued first).
type statementRunner interface {
	exec(sql string, args ...any) (int64, error)
	query(sql string, args []any, fn func(row []any) error) error
}

// cacheDB is a connection as the context cache uses it (contextcache.DB): its statements'
// ? placeholders numbered as PostgreSQL wants them.
type cacheDB struct{ r statementRunner }

// Query runs a statement and calls fn with each row, as conn.query does.
func (d cacheDB) Query(query string, args []any, fn func(row []any) error) error {
	return d.r.query(numbered(query), args, fn)
}

// Exec runs a statement that returns no rows.
func (d cacheDB) Exec(query string, args ...any) error {
	_, err := d.r.exec(numbered(query), args...)
	return err
}

// numbered returns query, a statement shared with SQLite (contextcache,
// infocolumns.Listing), with its ? placeholders made $1, $2, ... in order; a scan of a few
// hundred bytes, next to a round trip. The statements it is given hold no ? in a literal.
func numbered(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteString("$" + strconv.Itoa(n))
	}
	return b.String()
}
