// Package contextcache holds the context cache both backends keep beside the messages
// (contextbuild.CacheStore, and the Ops of token counting and context building): the
// cumulative token counts, turn and cut positions, cached summaries, compaction boundaries
// and folded state. Its statements are written once, in SQL both SQLite and PostgreSQL run,
// with ? placeholders; a backend runs them through DB on its own connections, and keeps only
// what depends on how it stores message bodies (ScanContext).
package contextcache
