package postgres

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session/hosted"
)

// SessionIDByKey returns the id of the session of a hosted agent's key; "" when none. The
// key is unique in the table, so two hosts creating a session for one key at once make one
// (the second's insert does nothing, and session.Manager opens the first's).
func (s *Store) SessionIDByKey(key string) (string, error) {
	id := ""
	err := s.read(func(c conn) error {
		return c.query(`SELECT id FROM sessions WHERE session_key = $1`, []any{key}, func(row []any) error {
			id = row[0].(string)
			return nil
		})
	})
	return id, storageError("finding the session of key "+key, err)
}

// History returns the last limit entries (all when limit is 0) of a session's manual
// history, oldest first.
func (s *Store) History(sessionID string, limit int) ([]hosted.HistoryEntry, error) {
	entries := []hosted.HistoryEntry{}
	err := s.readSession(sessionID, "reading the history", func(c conn, sid int64) error {
		var n any // NULL: no limit
		if limit > 0 {
			n = limit
		}
		return c.query(`SELECT role, content, created_at FROM (
				SELECT hid, role, content, created_at FROM history WHERE sid = $1 ORDER BY hid DESC LIMIT $2) h
			ORDER BY hid`, []any{sid, n}, func(row []any) error {
			entries = append(entries, hosted.HistoryEntry{Role: row[0].(string), Content: row[1].(string),
				At: time.UnixMilli(row[2].(int64)).UTC()})
			return nil
		})
	})
	return entries, err
}
