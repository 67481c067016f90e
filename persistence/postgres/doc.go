// Package postgres is the storage backend for agent hosts that share one store: it
// implements the session package's store interfaces over PostgreSQL (github.com/jackc/pgx/v5,
// with a pgxpool connection pool). A store is one schema of one database, named by the
// search_path parameter of its URL (created when missing); its tables are created and
// upgraded by numbered migrations run under a transaction-scoped advisory lock, so any
// number of hosts may open a fresh store at once.
//
// As on SQLite, Apply only queues: one writer goroutine per store commits what is queued
// in group transactions on its own connection, a few milliseconds after the first Op, each
// in two round trips (the BEGIN sent with the first statements, the COMMIT with the last),
// and, while some process watches the store, each commit sends a NOTIFY on the store's
// channel naming the sessions it wrote, so that other processes can follow a session
// (Watch) without polling (notify.go).
//
// What a commit writes follows SQLite's write-once model (schema_bodies.go): a message that
// has ended is one row of messages with its body and layout (persistence/msgbody), and the
// blocks table only journals the messages still streaming, so that the durability bound
// holds mid-message; reads take a message's blocks from its body, or from its block rows
// when it has none.
//
// Who writes a session: each store's writer holds a session-level advisory lock (its owner
// key) on its connection for as long as it runs. A session records the owner key of the
// last writer; a session whose owner's lock is not held any more (the process exited or
// its host died, which closes its connection) is recovered as SQLite recovers one left by a
// dead process. Two processes appending to one session at once conflict on the message seq
// as they do on SQLite: the second's conflicting records are skipped and its Flush reports
// session.ErrSessionConflict.
package postgres
