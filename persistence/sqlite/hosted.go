package sqlite

import (
	"database/sql/driver"
	"errors"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/hosted"
)

// errStopScan ends a scan early, as the caller asked.
var errStopScan = errors.New("scan stopped")

// SessionIDByKey returns the id of the session of a hosted agent's key; "" when none.
func (s *Store) SessionIDByKey(key string) (string, error) {
	id := ""
	err := s.read(func(c *sqlconn.Conn) error {
		return c.Query(`SELECT id FROM sessions WHERE session_key = ?`, []any{key}, func(row []driver.Value) error {
			id, _ = row[0].(string)
			return nil
		})
	})
	return id, sqlconn.Wrap("finding the session of key "+key, err)
}

// History returns the last limit entries (all when limit is 0) of a session's manual
// history, oldest first.
func (s *Store) History(sessionID string, limit int) ([]hosted.HistoryEntry, error) {
	entries := []hosted.HistoryEntry{}
	err := s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		n := int64(limit)
		if n == 0 {
			n = -1
		}
		err = c.Query(`SELECT role, content, created_at FROM history WHERE sid = ? ORDER BY hid DESC LIMIT ?`, []any{sid, n},
			func(row []driver.Value) error {
				d := rowDecoder{row: row}
				entries = append(entries, hosted.HistoryEntry{Role: d.Text(0, "role"), Content: d.Text(1, "content"), At: time.UnixMilli(d.Integer(2, "created_at")).UTC()})
				return nil
			})
		return sqlconn.Wrap("reading the history of session "+sessionID, err)
	})
	for i, j := 0, len(entries)-1; i < j; i, j = i+1, j-1 {
		entries[i], entries[j] = entries[j], entries[i]
	}
	return entries, err
}

// ScanMessagesBackward calls fn for the messages of a session's main conversation (not its
// sidechains) from the last back to seq fromSeq, until fn returns false, reading the
// (sid, seq) index backwards.
func (s *Store) ScanMessagesBackward(sessionID string, fromSeq int64, fn func(*session.StoredMessage) bool) error {
	return s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		var m session.StoredMessage
		current := int64(-1)
		err = c.Query(`SELECT m.seq, m.uuid, m.type, m.role, m.created_at, coalesce(b.body, bl.data), m.body, m.layout
			FROM messages m
			LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq
			LEFT JOIN blobs bl ON bl.id = b.blob_id
			WHERE m.sid = ? AND m.seq >= ? AND m.is_sidechain = 0 ORDER BY m.seq DESC, b.idx`, []any{sid, fromSeq}, func(row []driver.Value) error {
			d := rowDecoder{row: row}
			if seq := d.Integer(0, "seq"); seq != current {
				if current >= 0 && !fn(&m) {
					return errStopScan
				}
				current = seq
				m = session.StoredMessage{Seq: seq, UUID: d.Text(1, "uuid"), SessionID: sessionID, Type: d.Text(2, "type"),
					Role: d.Text(3, "role"), CreatedAt: time.UnixMilli(d.Integer(4, "created_at")).UTC(), Blocks: m.Blocks[:0]}
				if body := rowvalue.Bytes(row[6]); body != nil {
					var err error
					m.Blocks, err = msgbody.StoredBlocks(body, rowvalue.Bytes(row[7]), m.Blocks, seq)
					return err
				}
			}
			if body := rowvalue.Bytes(row[5]); body != nil {
				m.Blocks = append(m.Blocks, body)
			}
			return nil
		})
		if errors.Is(err, errStopScan) {
			return nil
		}
		if err == nil && current >= 0 {
			fn(&m)
		}
		return sqlconn.Wrap("reading messages of session "+sessionID, err)
	})
}
