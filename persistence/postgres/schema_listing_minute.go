package postgres

// schemaV8 is migration 8: the listing's indexes keyed by the minute of a session's last
// write (updated_minute), not by updated_at, so that the writer's update of a session's
// listing at every commit changes no indexed column and is a HOT update: one new version
// in the row's page and no entry in any of the six indexes of sessions, where keying by
// updated_at wrote one in each (bench/README.md, issue 30 round 8). The key changes once a
// minute of writing at most. The listing reads an index in the minute's order and sorts
// each minute's sessions by (updated_at, sid) (listingOrder). The column is generated, so
// every statement that sets updated_at keeps it right without knowing of it.
//
// The column's addition rewrites the table and the indexes are built in the migration's
// one transaction (migrate): a host that dies midway leaves the store as it was, and the
// next open runs it again.
var schemaV8 = []string{
	`ALTER TABLE sessions ADD COLUMN updated_minute BIGINT GENERATED ALWAYS AS (updated_at / 60000) STORED`,
	`DROP INDEX sessions_listed`,
	`DROP INDEX sessions_by_project`,
	`CREATE INDEX sessions_listed ON sessions(updated_minute DESC) WHERE archived_at = 0`,
	`CREATE INDEX sessions_by_project ON sessions(project_path, updated_minute DESC)`,
}
