package persistence

import (
	"database/sql/driver"
)

// markInterrupted finds messages still marked streaming whose writer is gone (it crashed
// or was killed) and marks them, and their sessions, interrupted. What had streamed stays,
// partial blocks included; nothing is completed or dropped.
func markInterrupted(c *conn) error {
	type orphan struct {
		sid   int64
		owner string
	}
	var found []orphan
	err := c.query(`SELECT DISTINCT m.sid, s.owner FROM messages m JOIN sessions s ON s.sid = m.sid
		WHERE m.status = 'streaming'`, nil, func(row []driver.Value) error {
		found = append(found, orphan{row[0].(int64), row[1].(string)})
		return nil
	})
	if err != nil {
		return storageError("looking for interrupted messages", err)
	}
	for _, o := range found {
		if ownerAlive(o.owner) {
			continue
		}
		if _, err := c.exec(`UPDATE messages SET status = 'interrupted' WHERE sid = ? AND status = 'streaming'`, o.sid); err != nil {
			return storageError("marking interrupted messages", err)
		}
		if _, err := c.exec(`UPDATE sessions SET status = 'interrupted' WHERE sid = ?`, o.sid); err != nil {
			return storageError("marking an interrupted session", err)
		}
	}
	return nil
}
