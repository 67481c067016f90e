package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/rawdb"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// LoadSession returns what a Session needs to continue id. It reads through a direct
// connection, which takes no mutex per column and makes no driver rows: its four queries
// through the driver were 151 µs of a cold open (W3's), 112-134 µs this way. The session's
// row and its last seq are one statement, and only a branched session can have rewinds
// to look for: two queries for a session that never branched.
func (s *Store) LoadSession(id string) (session.SessionState, error) {
	var st session.SessionState
	err := s.readDirect(func(d *rawdb.Conn) error {
		c := directValues{d}
		sid, branched := int64(-1), true
		err := c.Query(`SELECT sid, branched, (SELECT MAX(seq) FROM messages m WHERE m.sid = sessions.sid), `+allInfo.SQL()+`
			FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
			sid = row[0].(int64)
			branched = row[1] != int64(0) // anything else, a damaged file's too, looks for rewinds
			st.Branched = branched
			if last, ok := row[2].(int64); ok {
				st.NextSeq = last + 1
			}
			st.Info = scanInfo(allInfo, row[3:])
			st.Tracker = st.Info.Tokens
			return nil
		})
		if err != nil {
			return sqlconn.Wrap("loading session "+id, err)
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		// The next message continues the main conversation, whatever sidechain came last.
		return sqlconn.Wrap("loading the head of session "+id, loadHead(c, sid, branched, &st))
	})
	return st, err
}

// ScanMessages calls fn for each message of a session, in order, its blocks cut from its
// body, or joined from the block rows of one that has none.
func (s *Store) ScanMessages(sessionID string, fn func(*session.StoredMessage) error) error {
	return s.ScanMessagesFrom(sessionID, 0, fn)
}

// ScanMessagesFrom is ScanMessages from message fromSeq on: the index finds the first of
// them, so reading the tail of a long session costs what the tail holds. fn ends the scan
// early by returning session.StopScan.
func (s *Store) ScanMessagesFrom(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) error {
	return s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		err = scanFrom(c, sid, sessionID, fromSeq, math.MaxInt64, fn)
		if errors.Is(err, session.StopScan) {
			return nil
		}
		return sqlconn.Wrap("reading messages of session "+sessionID, err)
	})
}

// scanFrom calls fn for each message of session sid from seq fromSeq to seq toSeq, in
// order, its blocks cut from its body (msgbody.FieldsAndBlocks), or else joined from its
// block rows and, for rows journaled before migration 10, the blobs table.
func scanFrom(c rowQuerier, sid int64, sessionID string, fromSeq, toSeq int64, fn func(*session.StoredMessage) error) error {
	var m session.StoredMessage
	current := int64(-1)
	err := c.Query(`SELECT m.seq, m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.status, m.created_at,
			m.provider, m.request_id, m.meta, m.extra, b.body, bl.data, m.is_sidechain, m.continues, b.idx, m.body, m.layout
		FROM messages m
		LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq
		LEFT JOIN blobs bl ON bl.id = b.blob_id
		WHERE m.sid = ? AND m.seq >= ? AND m.seq <= ? ORDER BY m.seq, b.idx`, []any{sid, fromSeq, toSeq}, func(row []driver.Value) error {
		if seq, ok := row[0].(int64); !ok || seq != current {
			if current >= 0 {
				if err := fn(&m); err != nil {
					return err
				}
			}
			var err error
			if m, err = scanMessageRow(row, sessionID, m.Blocks[:0]); err != nil {
				return err
			}
			current = m.Seq
			if body := rowvalue.Bytes(row[17]); body != nil {
				m.Meta, m.Extra, m.Blocks, err = msgbody.FieldsAndBlocks(m.Meta, m.Extra, body, rowvalue.Bytes(row[18]), m.Blocks, m.Seq)
				return err
			}
		}
		if body := rowvalue.Bytes(row[12]); body != nil {
			m.Blocks = append(m.Blocks, body)
		} else if data := rowvalue.Bytes(row[13]); data != nil {
			m.Blocks = append(m.Blocks, data)
		} else if row[16] != nil {
			return fmt.Errorf("%w: block %v of message %d has no content: its blob is missing", session.ErrSessionCorrupt, row[16], m.Seq)
		}
		return nil
	})
	if err == nil && current >= 0 {
		err = fn(&m)
	}
	return err
}

// scanMessageRow reads the message columns of a ScanMessages row; a column of the wrong
// type (a damaged file) is ErrSessionCorrupt.
func scanMessageRow(row []driver.Value, sessionID string, blocks [][]byte) (session.StoredMessage, error) {
	d := rowDecoder{row: row}
	m := session.StoredMessage{
		Seq: d.Integer(0, "seq"), UUID: d.Text(1, "uuid"), ParentUUID: d.Text(2, "parent_uuid"), SessionID: sessionID,
		Type: d.Text(3, "type"), Role: d.Text(4, "role"), Turn: d.Integer(5, "turn"), Status: d.Text(6, "status"),
		CreatedAt: time.UnixMilli(d.Integer(7, "created_at")), Provider: d.Text(8, "provider"), RequestID: d.Text(9, "request_id"),
		Meta: rowvalue.Bytes(row[10]), Extra: rowvalue.Bytes(row[11]), Blocks: blocks,
		IsSidechain: d.Integer(14, "is_sidechain") != 0, Continues: d.Integer(15, "continues") != 0,
	}
	if len(d.bad) > 0 {
		return m, fmt.Errorf("%w: the message at seq %v has unreadable columns: %s", session.ErrSessionCorrupt, row[0], strings.Join(d.bad, ", "))
	}
	var err error
	m.Extra, err = msgbody.ExtraColumn(m.Extra, m.Seq)
	return m, err
}

// notFound turns a failed session lookup into ErrSessionNotFound when the session is
// missing, and a storage error otherwise.
func notFound(id string, err error) error {
	if errors.Is(err, errUnknownSession) {
		return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
	}
	return sqlconn.Wrap("finding session "+id, err)
}

// Turns returns a session's turns from the turn numbers stored on its messages, as
// positions in its main conversation: sidechains and records that are not messages are
// left out, and a record that continues the message before it takes that message's place.
func (s *Store) Turns(sessionID string) ([]session.Turn, error) {
	turns := []session.Turn{}
	err := s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		err = c.Query(`SELECT turn, MIN(pos), MAX(pos) FROM (
				SELECT turn, SUM(1 - continues) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) - 1 AS pos
				FROM messages m WHERE sid = ? AND is_sidechain = 0 AND role != ''
					AND NOT (status = 'interrupted' AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq)
						AND coalesce(CASE WHEN json_valid(unpack_body(body)) THEN json_array_length(unpack_body(body), '$.message.content') WHEN body IS NOT NULL THEN 1 END, 0) = 0))
			GROUP BY turn ORDER BY turn`,
			[]any{sid}, func(row []driver.Value) error {
				turns = append(turns, session.Turn{Index: row[0].(int64), StartIndex: row[1].(int64), EndIndex: row[2].(int64)})
				return nil
			})
		return sqlconn.Wrap("reading turns of session "+sessionID, err)
	})
	return turns, err
}
