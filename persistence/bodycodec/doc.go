// Package bodycodec is the stored form of message bodies, apart from any backend (SQLite uses
// it; PostgreSQL keeps its block rows plain, bench/README.md says why):
// a body (or an imported record's extra column) is kept plain, packed with s2 when written
// live, or packed with a dictionary (zstd over 1 KB, s2 under it) when imported. The
// first byte tells the forms apart, one no JSON text starts with, so a reader needs no
// column to know how a value was stored. A form a store has used never changes: only new
// markers and new dictionaries are added.
package bodycodec
