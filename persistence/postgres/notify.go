package postgres

// A commit notifies the store's channel of the sessions it wrote only when some host listens
// (watch.go). PostgreSQL takes a database-wide lock at the commit of every transaction that
// sent a NOTIFY, so the commits of all writers that notify follow each other one at a time;
// with no one listening that queue was paid for nothing.
//
// Every watcher holds the advisory lock listenersKey of its channel, shared, for as long as
// it listens, on its listening connection (so it goes with that connection, a crash
// included). A commit tries to take it exclusively as its last statement: when it gets it no
// one listens, and it sends no NOTIFY. It then holds it until it commits, so a watcher that
// starts meanwhile waits for that commit before it listens: a commit made after Watch
// returned is never missed. When the try fails (a watcher holds it, or another writer's
// commit does for the moment) the commit notifies, as every commit did before.

// listenersKey is the advisory lock key of the watchers of channel $1.
const listenersKey = `hashtextextended('sessionkeep listeners ' || $1, 0)`

// notifySQL notifies channel $1 that the commit wrote session $2, unless no one listens.
const notifySQL = `SELECT CASE WHEN pg_try_advisory_xact_lock(` + listenersKey + `) THEN NULL ELSE pg_notify($1, $2) END`

// listenerSQL holds the lock of the watchers of channel $1, shared, until the connection
// closes; it waits for a commit that found no watcher to end.
const listenerSQL = `SELECT pg_advisory_lock_shared(` + listenersKey + `)`
