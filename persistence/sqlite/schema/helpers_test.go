package schema

import (
	"database/sql"
	"testing"

	"modernc.org/sqlite"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// init gives the connections rawDB opens the store's SQL functions, which the schema's
// views call.
func init() {
	for name, fn := range sqlconn.Functions() {
		sqlite.MustRegisterDeterministicScalarFunction(name, 1, fn)
	}
}

// openConn opens a store connection to the file at path, created if it is not there, and
// closes it when the test ends.
func openConn(t *testing.T, path string) *sqlconn.Conn {
	t.Helper()
	c, err := sqlconn.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// rawDB opens the file through database/sql, beside the store's connection, to look at
// what the schema left.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryInt(t *testing.T, db *sql.DB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
