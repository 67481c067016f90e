package schema

// searchTextMigration is migration 13: the text a body is searched by comes from
// searched_text (persistence/sqlite/sqlconn: functions.go), in Go, instead of SQLite's JSON
// functions. The index is external content, deleted by the text the view gives, so the rows
// indexed by the old view are taken out of it all at once ('delete-all') and every body is
// queued again: the writer indexes them when idle, or when a search waits for it, as after
// migration 10.
var searchTextMigration = []string{
	`DROP VIEW body_search_text`,
	`CREATE VIEW body_search_text(mid, text) AS
		SELECT mid, text FROM (SELECT mid, searched_text(body) AS text FROM messages WHERE body IS NOT NULL)
		WHERE text IS NOT NULL`,
	`INSERT INTO body_search(body_search) VALUES ('delete-all')`,
	`INSERT OR IGNORE INTO body_pending(mid) SELECT mid FROM messages WHERE body IS NOT NULL`,
}
