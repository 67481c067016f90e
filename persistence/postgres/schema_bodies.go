package postgres

// schemaV4 is migration 4: a message that has ended is one row, its body (the envelope
// JSON, as on SQLite: body.go) and layout in the messages table, and the blocks table only
// the journal of messages still streaming. Search moves with the bodies: a message's search
// vector is a column of its row, filled by the indexer from its body (search_index.go), and
// no second copy of its text is kept beside the body; search_text holds the text of the
// complete blocks of a message that has no body (one streaming). The journal rows carry no
// search columns. The schema change is instant; moving
// the rows of a store written before it is settleBodies' work (migration_bodies.go), in
// batches of their own transactions after the schema is migrated, which readers do not wait
// for: every read takes a message's blocks from its body, or from its block rows when it has
// none.
var schemaV4 = []string{
	`ALTER TABLE messages ADD COLUMN body BYTEA, ADD COLUMN layout BYTEA, ADD COLUMN search_text TEXT, ADD COLUMN search tsvector`,
	// A live body is stored plain and compressed by the server with lz4 (PostgreSQL 14 and
	// later, when built with it; pglz, the default, otherwise), which measured faster to
	// write and read than pglz and smaller than packing it with s2 first (body.go).
	`DO $$ BEGIN
		ALTER TABLE messages ALTER COLUMN body SET COMPRESSION lz4;
	EXCEPTION WHEN others THEN NULL;
	END $$`,
	`CREATE INDEX messages_search ON messages USING GIN (search)`,
	`CREATE INDEX messages_unindexed ON messages(sid) WHERE search IS NULL AND (body IS NOT NULL OR search_text IS NOT NULL)`,
	// The messages settleBodies still has to give a body, and the records that never get
	// one; dropped once it is done.
	`CREATE INDEX messages_without_body ON messages(sid, seq) WHERE body IS NULL`,
	`ALTER TABLE blocks DROP COLUMN search, DROP COLUMN search_text`, // drops blocks_search and blocks_unindexed
	// The moves of rows a migration leaves to be done in batches after it, each done once a
	// pass over the whole store has ended.
	`CREATE TABLE background_migrations (name TEXT PRIMARY KEY, done_at BIGINT)`,
	`INSERT INTO background_migrations(name) VALUES ('bodies')`,
}
