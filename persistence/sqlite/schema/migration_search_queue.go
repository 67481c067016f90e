package schema

// searchQueueMigration is migration 7: blocks are indexed for search in slices, off the
// path that makes messages durable. FTS5 writes its pending terms to disk as a new segment
// at every statement that touches it, so the per-block triggers of migration 3 wrote one
// segment per block and spent most of a long ingest merging them (W1 of the speed
// benchmark: 0.9 s of the writer's 1.6 s; once per batch it was still 0.5 s). Now the
// triggers only note a completed block in search_pending, a durable queue, and the writer
// indexes noted blocks when it is idle or when a search waits for them
// (persistence/sqlite/search_index.go), so a search still finds everything committed before
// it.
//
// A block that was indexed and is then changed or deleted is taken out of the index at once,
// as before; one that is still only noted is simply noted again or forgotten.
var searchQueueMigration = []string{
	`CREATE TABLE search_pending (bid INTEGER PRIMARY KEY)`,
	`DROP TRIGGER blocks_search_insert`,
	`DROP TRIGGER blocks_search_update`,
	`DROP TRIGGER blocks_search_delete`,
	`CREATE TRIGGER blocks_search_insert AFTER INSERT ON blocks WHEN new.partial = 0 BEGIN
		INSERT OR IGNORE INTO search_pending(bid) VALUES (new.bid);
	END`,
	`CREATE TRIGGER blocks_search_update AFTER UPDATE ON blocks WHEN old.partial = 0 OR new.partial = 0 BEGIN
		INSERT INTO message_search(message_search, rowid, text)
			SELECT 'delete', old.bid, t FROM (SELECT ` + blockText("old") + ` AS t)
			WHERE old.partial = 0 AND t IS NOT NULL AND NOT EXISTS (SELECT 1 FROM search_pending WHERE bid = old.bid);
		DELETE FROM search_pending WHERE bid = old.bid AND new.partial = 1;
		INSERT OR IGNORE INTO search_pending(bid) SELECT new.bid WHERE new.partial = 0;
	END`,
	`CREATE TRIGGER blocks_search_delete AFTER DELETE ON blocks WHEN old.partial = 0 BEGIN
		INSERT INTO message_search(message_search, rowid, text)
			SELECT 'delete', old.bid, t FROM (SELECT ` + blockText("old") + ` AS t)
			WHERE t IS NOT NULL AND NOT EXISTS (SELECT 1 FROM search_pending WHERE bid = old.bid);
		DELETE FROM search_pending WHERE bid = old.bid;
	END`,
}
