// Package sqlite is the embedded storage backend: it implements the session package's store
// interfaces over SQLite (modernc.org/sqlite, pure Go). One file in WAL mode is the single
// source of truth, its schema is created and upgraded by numbered migrations recorded in
// the file itself (persistence/sqlite/schema, run at each open on a connection of
// persistence/sqlite/sqlconn), a completed message is stored once as its encoded body
// (block rows only journal what is still streaming; file snapshots' contents live in a
// content-addressed blob table), and one writer goroutine per store applies queued Ops in
// batches (group commit), so that recording a chunk never waits on disk.
package sqlite
