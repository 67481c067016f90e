package sqlite

import (
	"database/sql/driver"

	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
)

// HeldUUIDs returns which of uuids the session holds a message or record of: one statement
// for a batch of an import, through the index of the messages' uuids, so that an import
// keeps no set of every uuid it has met (a file of gigabytes holds millions). The index is
// named: the planner would otherwise take the session's, and read every message it holds.
func (s *Store) HeldUUIDs(sessionID string, uuids []string) (map[string]struct{}, error) {
	held := map[string]struct{}{}
	if len(uuids) == 0 {
		return held, nil
	}
	list, err := json.Marshal(uuids)
	if err != nil {
		return nil, err
	}
	err = s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		err = c.Query(`SELECT uuid FROM messages INDEXED BY messages_by_uuid WHERE uuid IN (SELECT value FROM json_each(?)) AND sid = ?`,
			[]any{string(list), sid}, func(row []driver.Value) error {
				held[row[0].(string)] = struct{}{}
				return nil
			})
		return sqlconn.Wrap("looking up the records of session "+sessionID, err)
	})
	return held, err
}
