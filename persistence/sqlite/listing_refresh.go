package sqlite

import "github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"

// A message written shows in its session's listing: the listing's last message time is
// that message's, an archived session is listed again, and the session is marked held by a
// live process. Up to migration 12 a trigger did this once per message inserted, which
// rewrote the listing index once per message; now the writer does it once per batch
// (touch), before any management op of the batch (listMessages, so that an archive or a
// close after a message still wins, as it did after the trigger), and a path that inserts
// messages in bulk calls refreshListing.

// listMessages shows in the listing the messages the batch has written so far to each
// session of sessions.
func (w *writer) listMessages(sessions map[int64]*touched) error {
	for sid, t := range sessions {
		if !t.unlisted {
			continue
		}
		if _, err := w.c.Exec(`UPDATE sessions SET last_message_at = ?, archived_at = 0, is_open = 1 WHERE sid = ?`,
			t.lastMessageAt, sid); err != nil {
			return err
		}
		t.unlisted = false
	}
	return nil
}

// refreshListing shows the messages of session sid in its listing after they were
// inserted other than through the writer's batches (a fork's copy, a bulk import): its last
// message time becomes that of its last record, and, if it has any, it is listed again when
// archived and marked held by a live process. Its message count is the caller's to set.
func refreshListing(c *sqlconn.Conn, sid int64) error {
	_, err := c.Exec(`UPDATE sessions SET last_message_at = m.created_at, archived_at = 0, is_open = 1
		FROM (SELECT created_at FROM messages WHERE sid = ?1 ORDER BY seq DESC LIMIT 1) AS m
		WHERE sid = ?1`, sid)
	return err
}
