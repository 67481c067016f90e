package contextcache

// DB is a backend's connection as the context cache uses it.
type DB interface {
	// Query runs a statement whose ? placeholders take args in order, and calls fn with each
	// row's values, valid only during the call: integers as int64, booleans as bool or
	// int64, text as string or []byte, NULL as nil.
	Query(query string, args []any, fn func(row []any) error) error
	// Exec runs a statement that returns no rows, as Query.
	Exec(query string, args ...any) error
}

// Session runs fn with the database key of a session, on a read connection, and turns a
// failure into the backend's error for what the caller was doing ("reading summaries"),
// or the session's absence into session.ErrSessionNotFound.
type Session func(sessionID, what string, fn func(db DB, sid int64) error) error
