package sqlite

// searchTextMigration is migration 13: the text a body is searched by comes from
// searched_text (search_text.go), in Go, instead of SQLite's JSON functions. The index is
// external content, deleted by the text the view gives, so the rows indexed by the old view
// are taken out of it all at once ('delete-all') and every body is queued again: the writer
// indexes them when idle, or when a search waits for it, as after migration 10.
//
// It also drops the AFTER INSERT triggers on messages: the writer does their work once per
// batch (insert_effects.go), so that an INSERT of a message is no longer a statement with
// a statement journal.
var searchTextMigration = []string{
	`DROP TRIGGER messages_branch`,
	`DROP TRIGGER messages_body_queue_insert`,
	`DROP VIEW body_search_text`,
	`CREATE VIEW body_search_text(mid, text) AS
		SELECT mid, text FROM (SELECT mid, searched_text(body) AS text FROM messages WHERE body IS NOT NULL)
		WHERE text IS NOT NULL`,
	`INSERT INTO body_search(body_search) VALUES ('delete-all')`,
	`INSERT OR IGNORE INTO body_pending(mid) SELECT mid FROM messages WHERE body IS NOT NULL`,
}
