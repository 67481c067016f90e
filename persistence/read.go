package persistence

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// LoadSession returns what a Session needs to continue id.
func (s *Store) LoadSession(id string) (session.SessionState, error) {
	var st session.SessionState
	err := s.read(func(c *conn) error {
		sid := int64(-1)
		err := c.query(`SELECT sid, `+sessionColumns+` FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
			sid = row[0].(int64)
			st.Info = scanInfo(row[1:])
			st.Tracker = st.Info.Tokens
			return nil
		})
		if err != nil {
			return storageError("loading session "+id, err)
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		err = c.query(`SELECT MAX(seq) FROM messages WHERE sid = ?`, []any{sid}, func(row []driver.Value) error {
			if last, ok := row[0].(int64); ok {
				st.NextSeq = last + 1
			}
			return nil
		})
		if err != nil {
			return storageError("loading the last message of session "+id, err)
		}
		// The next message continues the main conversation, whatever sidechain came last.
		err = c.query(`SELECT uuid, turn FROM messages WHERE sid = ? AND is_sidechain = 0 ORDER BY seq DESC LIMIT 1`, []any{sid}, func(row []driver.Value) error {
			st.LastUUID, st.LastTurn = row[0].(string), row[1].(int64)
			return nil
		})
		return storageError("loading the last message of session "+id, err)
	})
	return st, err
}

// ScanMessages calls fn for each message of a session, in order, its blocks joined from
// the blocks and blobs tables in one pass over the indexes.
func (s *Store) ScanMessages(sessionID string, fn func(*session.StoredMessage) error) error {
	return s.ScanMessagesFrom(sessionID, 0, fn)
}

// ScanMessagesFrom is ScanMessages from message fromSeq on: the index finds the first of
// them, so reading the tail of a long session costs what the tail holds.
func (s *Store) ScanMessagesFrom(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) error {
	return s.read(func(c *conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		var m session.StoredMessage
		current := int64(-1)
		err = c.query(`SELECT m.seq, m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.status, m.created_at,
				m.provider, m.request_id, m.meta, m.extra, b.body, bl.data, m.is_sidechain, m.continues
			FROM messages m
			LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq
			LEFT JOIN blobs bl ON bl.id = b.blob_id
			WHERE m.sid = ? AND m.seq >= ? ORDER BY m.seq, b.idx`, []any{sid, fromSeq}, func(row []driver.Value) error {
			if seq := row[0].(int64); seq != current {
				if current >= 0 {
					if err := fn(&m); err != nil {
						return err
					}
				}
				current = seq
				m = session.StoredMessage{
					Seq: seq, UUID: row[1].(string), ParentUUID: row[2].(string), SessionID: sessionID,
					Type: row[3].(string), Role: row[4].(string), Turn: row[5].(int64), Status: row[6].(string),
					CreatedAt: time.UnixMilli(row[7].(int64)), Provider: row[8].(string), RequestID: row[9].(string),
					Meta: asBytes(row[10]), Extra: asBytes(row[11]), Blocks: m.Blocks[:0],
					IsSidechain: row[14].(int64) != 0, Continues: row[15].(int64) != 0,
				}
			}
			if body := asBytes(row[12]); body != nil {
				m.Blocks = append(m.Blocks, body)
			} else if data := asBytes(row[13]); data != nil {
				m.Blocks = append(m.Blocks, data)
			}
			return nil
		})
		if err == nil && current >= 0 {
			err = fn(&m)
		}
		return storageError("reading messages of session "+sessionID, err)
	})
}

// asBytes returns a BLOB or TEXT column's bytes, nil for NULL.
func asBytes(v driver.Value) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case string:
		return []byte(v)
	}
	return nil
}

// notFound turns a failed session lookup into ErrSessionNotFound when the session is
// missing, and a storage error otherwise.
func notFound(id string, err error) error {
	if errors.Is(err, errUnknownSession) {
		return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
	}
	return storageError("finding session "+id, err)
}

// Turns returns a session's turns from the turn numbers stored on its messages, as
// positions in its main conversation: sidechains and records that are not messages are
// left out, and a record that continues the message before it takes that message's place.
func (s *Store) Turns(sessionID string) ([]session.Turn, error) {
	turns := []session.Turn{}
	err := s.read(func(c *conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		err = c.query(`SELECT turn, MIN(pos), MAX(pos) FROM (
				SELECT turn, SUM(1 - continues) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) - 1 AS pos
				FROM messages WHERE sid = ? AND is_sidechain = 0 AND role != '')
			GROUP BY turn ORDER BY turn`,
			[]any{sid}, func(row []driver.Value) error {
				turns = append(turns, session.Turn{Index: row[0].(int64), StartIndex: row[1].(int64), EndIndex: row[2].(int64)})
				return nil
			})
		return storageError("reading turns of session "+sessionID, err)
	})
	return turns, err
}

// HasToolUse reports whether a session holds a tool_use block with the given id.
func (s *Store) HasToolUse(sessionID, toolUseID string) (bool, error) {
	found := false
	err := s.read(func(c *conn) error {
		return c.query(`SELECT 1 FROM tool_uses WHERE sid = (SELECT sid FROM sessions WHERE id = ?) AND tool_use_id = ?`,
			[]any{sessionID, toolUseID}, func([]driver.Value) error {
				found = true
				return nil
			})
	})
	return found, storageError("looking up a tool use", err)
}
