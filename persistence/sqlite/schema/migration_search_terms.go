package schema

// SearchTermsFill adds to search_terms every term of both full-text indexes, read with
// FTS5's vocabulary tables (which read every doclist: the whole index, once).
var SearchTermsFill = []string{
	`CREATE VIRTUAL TABLE temp.body_search_terms USING fts5vocab(main, body_search, row)`,
	`CREATE VIRTUAL TABLE temp.message_search_terms USING fts5vocab(main, message_search, row)`,
	`INSERT OR IGNORE INTO search_terms(term) SELECT term FROM temp.body_search_terms`,
	`INSERT OR IGNORE INTO search_terms(term) SELECT term FROM temp.message_search_terms`,
	`DROP TABLE temp.body_search_terms`,
	`DROP TABLE temp.message_search_terms`,
}

// searchTermsMigration is migration 15: search_terms, every distinct term either
// full-text index holds, so that a search can turn a typed prefix into the exact terms it
// starts (persistence/sqlite: search_terms.go) instead of FTS5's prefix seek, which grew
// with the store. The writer adds the terms of each slice it indexes; a term whose last
// message is deleted stays, and costs an exact seek that finds nothing. The migration
// fills it from the indexes in its own transaction: interrupted, it runs again whole.
var searchTermsMigration = append([]string{
	`CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID`,
}, SearchTermsFill...)
