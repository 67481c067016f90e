package postgres

// schemaV3 is migration 3: a block's search vector is no longer generated in the
// transaction that writes the block but filled later (searchIndexer, indexPending), since
// computing it and maintaining the GIN index inline made ingesting a stream 18× slower than
// on SQLite. DROP EXPRESSION keeps the vectors already computed, and the GIN index; a row
// whose search_text is set and whose search is NULL is waiting to be indexed, which the
// partial index blocks_unindexed finds without reading the table.
var schemaV3 = []string{
	`ALTER TABLE blocks ALTER COLUMN search DROP EXPRESSION`,
	`CREATE INDEX blocks_unindexed ON blocks(sid) WHERE search IS NULL AND search_text IS NOT NULL`,
}
