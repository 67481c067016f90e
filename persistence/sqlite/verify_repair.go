package sqlite

import "github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"

// repairStatements rebuild what Verify checks and can be derived from the rows: both
// full-text indexes from their content (their queues then empty, since the rebuild indexed
// every row) and each session's counts. None deletes a message or a blob.
var repairStatements = []struct{ what, stmt string }{
	{"message_search rebuilt", `INSERT INTO message_search(message_search) VALUES ('rebuild')`},
	{"", `DELETE FROM search_pending`},
	{"body_search rebuilt", `INSERT INTO body_search(body_search) VALUES ('rebuild')`},
	{"", `DELETE FROM body_pending`},
	{"session counts recounted", `UPDATE sessions SET
		message_count = (SELECT COUNT(*) FROM messages m WHERE m.sid = sessions.sid),
		tool_count = (SELECT COUNT(*) FROM tool_uses t WHERE t.sid = sessions.sid)`},
}

// repairStore runs repairStatements in one transaction and returns what it rebuilt.
func repairStore(c *sqlconn.Conn) ([]string, error) {
	if _, err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		return nil, sqlconn.Wrap("starting the repair", err)
	}
	done := []string{}
	for _, r := range repairStatements {
		if _, err := c.Exec(r.stmt); err != nil {
			c.Exec("ROLLBACK")
			return nil, sqlconn.Wrap("repairing ("+r.stmt+")", err)
		}
		if r.what != "" {
			done = append(done, r.what)
		}
	}
	if _, err := c.Exec("COMMIT"); err != nil {
		c.Exec("ROLLBACK")
		return nil, sqlconn.Wrap("committing the repair", err)
	}
	return done, nil
}
