// Package rawdb is a read-only SQLite connection that calls the SQLite library modernc.org/sqlite
// ships (modernc.org/sqlite/lib) directly, without the database/sql driver.
//
// It exists for the hot reads (a listing, a session's tail): the driver opens every
// connection SQLITE_OPEN_FULLMUTEX, so each sqlite3_column_* call takes the connection's
// mutex, and it turns every column into a driver.Value with its own copy. A Conn is opened
// SQLITE_OPEN_NOMUTEX (SQLite's multi-thread mode), which is safe because a Conn is used
// by one goroutine at a time, as its owner guarantees, and its rows' columns are read in
// place, valid until the next step.
//
// It is the same library as the driver's, in the same process: the same file locks, WAL
// and shared memory, so a Conn sees every transaction the store's writer has committed.
package rawdb
