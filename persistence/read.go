package persistence

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// sessionColumns are read into a SessionInfo by scanInfo, in this order.
const sessionColumns = `id, project_path, title, provider, model, context_window, created_at, updated_at, message_count, status`

func scanInfo(row []driver.Value) session.SessionInfo {
	return session.SessionInfo{
		ID:            row[0].(string),
		ProjectPath:   row[1].(string),
		Title:         row[2].(string),
		Provider:      row[3].(string),
		Model:         row[4].(string),
		ContextWindow: row[5].(int64),
		CreatedAt:     time.UnixMilli(row[6].(int64)).UTC(),
		UpdatedAt:     time.UnixMilli(row[7].(int64)).UTC(),
		MessageCount:  row[8].(int64),
		Status:        row[9].(string),
	}
}

// LoadSession returns what a Session needs to continue id.
func (s *Store) LoadSession(id string) (session.SessionState, error) {
	var st session.SessionState
	err := s.read(func(c *conn) error {
		sid := int64(-1)
		err := c.query(`SELECT sid, `+sessionColumns+`, input_tokens, output_tokens, cache_read_tokens,
			cache_creation_tokens, context_tokens FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
			sid = row[0].(int64)
			st.Info = scanInfo(row[1:])
			st.Tracker = session.TokenTracker{
				InputTokens:              row[11].(int64),
				OutputTokens:             row[12].(int64),
				CacheReadInputTokens:     row[13].(int64),
				CacheCreationInputTokens: row[14].(int64),
				ContextTokens:            row[15].(int64),
			}
			return nil
		})
		if err != nil {
			return storageError("loading session "+id, err)
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		err = c.query(`SELECT seq, uuid, turn FROM messages WHERE sid = ? ORDER BY seq DESC LIMIT 1`, []any{sid}, func(row []driver.Value) error {
			st.NextSeq, st.LastUUID, st.LastTurn = row[0].(int64)+1, row[1].(string), row[2].(int64)
			return nil
		})
		return storageError("loading the last message of session "+id, err)
	})
	return st, err
}

// ListSessions returns sessions newest first.
func (s *Store) ListSessions(filter session.ListFilter) ([]session.SessionInfo, error) {
	query := `SELECT ` + sessionColumns + ` FROM sessions`
	var args []any
	if filter.ProjectPath != "" {
		query += ` WHERE project_path = ?`
		args = append(args, filter.ProjectPath)
	}
	query += ` ORDER BY updated_at DESC, sid DESC`
	if filter.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, filter.Limit)
	}
	list := []session.SessionInfo{}
	err := s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			list = append(list, scanInfo(row))
			return nil
		})
	})
	return list, storageError("listing sessions", err)
}

// ScanMessages calls fn for each message of a session, in order, every field set.
func (s *Store) ScanMessages(sessionID string, fn func(*session.StoredMessage) error) error {
	return s.scan(sessionID, -1, false, fn)
}

// ScanEncoded calls fn for each of the last n messages of a session (all when n < 0), in
// order. A complete message comes as its stored body (Encoded and MessageAt, beside Seq);
// one still streaming, or interrupted by a crash, comes whole as from ScanMessages.
func (s *Store) ScanEncoded(sessionID string, n int, fn func(*session.StoredMessage) error) error {
	return s.scan(sessionID, n, true, fn)
}

// headerColumns are read into a StoredMessage by scanHeader, in this order.
const headerColumns = `uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id, meta, extra`

func scanHeader(m *session.StoredMessage, row []driver.Value) {
	m.UUID, m.ParentUUID, m.Type, m.Role = row[0].(string), row[1].(string), row[2].(string), row[3].(string)
	m.Turn, m.Status, m.CreatedAt = row[4].(int64), row[5].(string), time.UnixMilli(row[6].(int64))
	m.Provider, m.RequestID, m.Meta, m.Extra = row[7].(string), row[8].(string), asBytes(row[9]), asBytes(row[10])
}

// scan reads the last n messages of a session (all when n < 0): from their bodies, and
// from their block rows for those that have none yet. lean leaves a body encoded.
func (s *Store) scan(sessionID string, n int, lean bool, fn func(*session.StoredMessage) error) error {
	return s.read(func(c *conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		from := int64(0)
		if n >= 0 {
			if from, err = firstOfLast(c, sid, n); err != nil {
				return storageError("reading messages of session "+sessionID, err)
			}
		}
		query := `SELECT seq, body, layout FROM messages WHERE sid = ? AND seq >= ? ORDER BY seq`
		if !lean {
			query = `SELECT seq, body, layout, ` + headerColumns + ` FROM messages WHERE sid = ? AND seq >= ? ORDER BY seq`
		}
		r := bodyReader{c: c, sid: sid, sessionID: sessionID}
		err = c.query(query, []any{sid, from}, func(row []driver.Value) error {
			m, err := r.message(row, lean)
			if err != nil {
				return err
			}
			return fn(m)
		})
		return storageError("reading messages of session "+sessionID, err)
	})
}

// bodyReader turns message rows into StoredMessages, reusing its buffers between rows.
type bodyReader struct {
	c         *conn
	sid       int64
	sessionID string
	m         session.StoredMessage
	spans     []blockSpan
	parts     [][]byte
}

// message reads one row of scan's query.
func (r *bodyReader) message(row []driver.Value, lean bool) (*session.StoredMessage, error) {
	seq, body := row[0].(int64), asBytes(row[1])
	if body == nil {
		return r.whole(seq)
	}
	l, err := decodeLayout(asBytes(row[2]), len(body), r.spans)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d of session %s: %v", session.ErrCorrupt, seq, r.sessionID, err)
	}
	r.spans = l.blocks
	m := &r.m
	*m = session.StoredMessage{Seq: seq, Blocks: m.Blocks[:0], Encoded: r.parts[:0]}
	if !lean {
		scanHeader(m, row[3:])
		m.SessionID = r.sessionID
	}
	at := 0
	for _, span := range l.blocks {
		if span.blob == 0 {
			m.Blocks = append(m.Blocks, body[span.at:span.at+span.n])
			continue
		}
		data, err := r.blob(span.blob)
		if err != nil {
			return nil, err
		}
		m.Encoded = append(m.Encoded, body[at:span.at], data)
		m.Blocks = append(m.Blocks, data)
		at = span.at
	}
	m.Encoded = append(m.Encoded, body[at:])
	r.parts = m.Encoded
	if lean {
		m.Blocks, m.MessageAt = nil, l.messageAt
	} else {
		m.Encoded = nil
	}
	return m, nil
}

// blob returns the data of blob id.
func (r *bodyReader) blob(id int64) ([]byte, error) {
	var data []byte
	err := r.c.query(`SELECT data FROM blobs WHERE id = ?`, []any{id}, func(row []driver.Value) error {
		data = asBytes(row[0])
		return nil
	})
	if err == nil && data == nil {
		err = fmt.Errorf("%w: blob %d of session %s is missing", session.ErrCorrupt, id, r.sessionID)
	}
	return data, err
}

// whole reads message seq from its header and block rows: a message with no body yet.
func (r *bodyReader) whole(seq int64) (*session.StoredMessage, error) {
	m := &r.m
	*m = session.StoredMessage{Seq: seq, SessionID: r.sessionID, Blocks: m.Blocks[:0]}
	err := r.c.query(`SELECT `+headerColumns+` FROM messages WHERE sid = ? AND seq = ?`, []any{r.sid, seq},
		func(row []driver.Value) error {
			scanHeader(m, row)
			return nil
		})
	if err != nil {
		return nil, err
	}
	err = r.c.query(`SELECT b.body, bl.data FROM blocks b LEFT JOIN blobs bl ON bl.id = b.blob_id
		WHERE b.sid = ? AND b.seq = ? ORDER BY b.idx`, []any{r.sid, seq}, func(row []driver.Value) error {
		if body := asBytes(row[0]); body != nil {
			m.Blocks = append(m.Blocks, body)
		} else if data := asBytes(row[1]); data != nil {
			m.Blocks = append(m.Blocks, data)
		}
		return nil
	})
	return m, err
}

// firstOfLast returns the seq of the first of the last n messages of a session; a seq past
// every message when n is 0.
func firstOfLast(c *conn, sid int64, n int) (int64, error) {
	if n == 0 {
		return math.MaxInt64, nil
	}
	from := int64(0)
	err := c.query(`SELECT seq FROM messages WHERE sid = ? ORDER BY seq DESC LIMIT 1 OFFSET ?`, []any{sid, n - 1},
		func(row []driver.Value) error {
			from = row[0].(int64)
			return nil
		})
	return from, err
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

// Turns returns a session's turns from the turn numbers stored on its messages.
func (s *Store) Turns(sessionID string) ([]session.Turn, error) {
	turns := []session.Turn{}
	err := s.read(func(c *conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		err = c.query(`SELECT turn, MIN(seq), MAX(seq) FROM messages WHERE sid = ? GROUP BY turn ORDER BY turn`,
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
