package postgres

// schemaV5 is migration 5: the search index holds only the messages the indexer has given a
// vector. A GIN index keeps an entry for a NULL too, so every message the writer inserted
// (its vector NULL until the indexer fills it, search_index.go) went into the index's
// pending list, whose metapage every writer locks: eight writers contended for it at each
// insert. A search's `search @@ query` implies `search IS NOT NULL` (@@ is strict), so the
// planner uses the partial index as it did the whole one (TestSearchReadsThePartialIndex).
// The index is rebuilt in the migration's transaction, which holds the messages table for
// as long as that takes (bench/README.md, issue 30 round 5).
var schemaV5 = []string{
	`DROP INDEX messages_search`,
	`CREATE INDEX messages_search ON messages USING GIN (search) WHERE search IS NOT NULL`,
}
