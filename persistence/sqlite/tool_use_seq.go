package sqlite

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// ToolUseSeq returns the seq of the record of a session holding the tool_use block
// toolUseID, and whether there is one.
func (s *Store) ToolUseSeq(sessionID, toolUseID string) (seq int64, found bool, err error) {
	err = s.read(func(c *sqlconn.Conn) error {
		return c.Query(`SELECT seq FROM tool_uses WHERE sid = (SELECT sid FROM sessions WHERE id = ?) AND tool_use_id = ?`,
			[]any{sessionID, toolUseID}, func(row []driver.Value) error {
				seq, found = row[0].(int64)
				return nil
			})
	})
	return seq, found, sqlconn.Wrap("looking up a tool use", err)
}
