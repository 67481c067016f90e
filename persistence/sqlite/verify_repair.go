package sqlite

import (
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/schema"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// repairStatements rebuild what Verify checks and can be derived from the rows: both
// full-text indexes from their content (their queues then empty, since the rebuild indexed
// every row, and their terms read again) and each session's counts. None deletes a message
// or a blob.
var repairStatements = append([]struct{ what, stmt string }{
	{"message_search rebuilt", `INSERT INTO message_search(message_search) VALUES ('rebuild')`},
	{"", `DELETE FROM search_pending`},
	{"body_search rebuilt", `INSERT INTO body_search(body_search) VALUES ('rebuild')`},
	{"", `DELETE FROM body_pending`},
	{"", `DELETE FROM search_terms`},
	{"session counts recounted", `UPDATE sessions SET
		message_count = (SELECT COUNT(*) FROM messages m WHERE m.sid = sessions.sid),
		tool_count = (SELECT COUNT(*) FROM tool_uses t WHERE t.sid = sessions.sid)`},
}, fillingSearchTerms()...)

// fillingSearchTerms are schema.SearchTermsFill as repair statements, after search_terms is
// emptied: the rebuilt indexes' terms, without those of deleted messages.
func fillingSearchTerms() []struct{ what, stmt string } {
	fill := make([]struct{ what, stmt string }, len(schema.SearchTermsFill))
	for i, stmt := range schema.SearchTermsFill {
		fill[i].stmt = stmt
	}
	return fill
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
