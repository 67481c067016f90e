// Package persistence is the folder of what keeps sessions outside memory: one package per
// storage backend (sqlite, the embedded default) and one per file format sessions are read
// from and written to (claudecode, codex, markdown, archive, with transcript and interop
// shared by them). It holds no code itself, so that a second backend is a sibling of sqlite
// that implements the session package's store interfaces one at a time.
package persistence
