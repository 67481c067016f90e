// Package sqlconn is the SQLite store's connection to its file: the pragmas every
// connection is opened with, the SQL functions its schema calls (unpack_body,
// searched_text), statements prepared once and kept, rows handed to a callback straight
// from the driver, and what a SQLite error means for a caller of the store (Wrap: the
// session package's ErrBusy, ErrCorrupt, ErrDiskFull, ErrReadOnly, ErrStoreGone or
// ErrStorage).
package sqlconn
