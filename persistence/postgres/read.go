package postgres

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// LoadSession returns what a Session needs to continue id. A session that no other writer
// holds open (most: closed ones, and this store's own) is loaded by one statement; one that
// another writer holds open is first recovered if that writer is gone (recoverSession), so
// that what is loaded says interrupted, then loaded again.
func (s *Store) LoadSession(id string) (session.SessionState, error) {
	var st session.SessionState
	err := s.read(func(c conn) error {
		sid, othersOpen, err := loadState(c, id, s.w.owner, &st)
		if err != nil {
			return storageError("loading session "+id, err)
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		if !othersOpen {
			return nil
		}
		if err := recoverSession(c, sid, s.w.owner); err != nil {
			return storageError("recovering session "+id, err)
		}
		st = session.SessionState{}
		_, _, err = loadState(c, id, s.w.owner, &st)
		return storageError("loading session "+id, err)
	})
	return st, err
}

// loadState reads session id into st in one statement (loadStateSQL). It returns the
// session's key, -1 when there is none, and whether a writer other than own holds it open or
// streaming.
func loadState(c conn, id, own string, st *session.SessionState) (sid int64, othersOpen bool, err error) {
	sid = -1
	err = c.query(loadStateSQL, []any{id, own}, func(row []any) error {
		sid, othersOpen = loadStateRow(row, st)
		return nil
	})
	return sid, othersOpen, err
}

// loadStateSQL reads a session with $1 as id: its listing, the seq of its last message, its
// head (the newest main-chain record, unless a rewind moved the head after that record was
// written), whether a writer other than $2 holds it open or streaming and whether it
// branched.
var loadStateSQL = `SELECT s.sid, ` + allInfo.SQL() + `,
		(SELECT MAX(m.seq) FROM messages m WHERE m.sid = s.sid),
		h.head_uuid, h.head_turn, rw.rewind_uuid, rw.rewind_turn,
		s.owner <> $2 AND (s.is_open OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = s.sid AND m.status = 'streaming')),
		s.branched
	FROM sessions s
	LEFT JOIN LATERAL (SELECT m.seq AS head_seq, m.uuid AS head_uuid, m.turn AS head_turn FROM messages m
		WHERE m.sid = s.sid AND NOT m.is_sidechain ORDER BY m.seq DESC LIMIT 1) h ON true
	LEFT JOIN LATERAL (SELECT r.uuid AS rewind_uuid,
			(SELECT m.turn FROM messages m WHERE m.uuid = r.uuid AND m.sid = r.sid ORDER BY m.seq LIMIT 1) AS rewind_turn
		FROM rewinds r WHERE r.sid = s.sid AND r.at_seq > coalesce(h.head_seq, -1) ORDER BY r.rid DESC LIMIT 1) rw ON true
	WHERE s.id = $1`

// loadStateRow reads the row of loadStateSQL into st and returns the session's key and
// whether another writer holds it open or streaming.
func loadStateRow(row []any, st *session.SessionState) (sid int64, othersOpen bool) {
	n := 1 + len(allInfo)
	st.Info = scanInfo(allInfo, row[1:n])
	st.Tracker = st.Info.Tokens
	if last, ok := row[n].(int64); ok {
		st.NextSeq = last + 1
	}
	// The next message continues the main conversation, whatever sidechain came last.
	if uuid, ok := row[n+1].(string); ok {
		st.LastUUID, st.LastTurn = uuid, row[n+2].(int64)
	}
	if uuid, ok := row[n+3].(string); ok {
		st.LastUUID = uuid
		if turn, ok := row[n+4].(int64); ok {
			st.LastTurn = turn
		}
	}
	st.Branched = row[n+6].(bool)
	return row[0].(int64), row[n+5].(bool)
}

// ScanMessages calls fn for each message of a session, in order.
func (s *Store) ScanMessages(sessionID string, fn func(*session.StoredMessage) error) error {
	return s.ScanMessagesFrom(sessionID, 0, fn)
}

// ScanEncoded is ScanMessagesFrom, but a message that has a body comes as that body
// (Encoded), which a restore copies rather than encoding the message again.
func (s *Store) ScanEncoded(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) error {
	_, err := s.scanEncoded(sessionID, fromSeq, false, fn)
	return err
}

// ScanEncodedUnbranched is ScanEncoded for a session that never branched, in the same one
// statement: a session that branched is reported without fn being called, so that a tail
// of a session that never branched (most) asks and reads in one round trip.
func (s *Store) ScanEncodedUnbranched(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) (branched bool, err error) {
	return s.scanEncoded(sessionID, fromSeq, true, fn)
}

// scanEncoded is ScanEncoded, which with unlessBranched reads nothing of a session that
// branched and reports it.
func (s *Store) scanEncoded(sessionID string, fromSeq int64, unlessBranched bool, fn func(*session.StoredMessage) error) (branched bool, err error) {
	err = s.readByID(sessionID, "reading messages", func(c conn) (found bool, err error) {
		found, branched, err = scanFrom(c, sessionID, fromSeq, math.MaxInt64, true, unlessBranched, fn)
		return found, err
	})
	if errors.Is(err, session.StopScan) {
		return branched, nil
	}
	return branched, err
}

// ScanMessagesFrom is ScanMessages from message fromSeq on, through the primary key. fn
// ends the scan early by returning session.StopScan.
func (s *Store) ScanMessagesFrom(sessionID string, fromSeq int64, fn func(*session.StoredMessage) error) error {
	err := s.readByID(sessionID, "reading messages", func(c conn) (bool, error) {
		found, _, err := scanFrom(c, sessionID, fromSeq, math.MaxInt64, false, false, fn)
		return found, err
	})
	if errors.Is(err, session.StopScan) {
		return nil
	}
	return err
}

// scanFrom calls fn for each message of session sessionID from seq fromSeq to toSeq, in order,
// with its blocks (from its body, or its block rows when it has none; encoded, a message with a
// body comes as that body), and reports whether the session exists: one statement, which finds
// the session's key itself (a read of a few messages pays one round trip, not two), run with
// its generic plan (planGeneric, in the same round trip). With unlessBranched it reads no
// message of a session that branched, and reports that it did.
func scanFrom(c conn, sessionID string, fromSeq, toSeq int64, encoded, unlessBranched bool, fn func(*session.StoredMessage) error) (found, branched bool, err error) {
	var m session.StoredMessage
	current := int64(-1)
	const at = messageColumnCount
	err = c.queryBatch(planGeneric, batchQuery{scanFromSQL, []any{sessionID, fromSeq, toSeq, unlessBranched}, func(row []any) error {
		found, branched = true, unlessBranched && row[at+3].(bool)
		seq, ok := row[0].(int64)
		if !ok { // the session, without messages in the range
			return nil
		}
		if seq != current {
			if current >= 0 {
				if err := fn(&m); err != nil {
					return err
				}
			}
			current = seq
			blocks := m.Blocks[:0]
			m = messageOfRow(row, sessionID)
			if body, ok := row[at].([]byte); ok {
				plain, messageAt, blocks, err := bodyBlocks(body, row[at+1].([]byte), blocks, seq)
				if err != nil {
					return err
				}
				if encoded {
					m = session.StoredMessage{Seq: m.Seq, Role: m.Role, IsSidechain: m.IsSidechain, Continues: m.Continues,
						Encoded: [][]byte{plain}, MessageAt: messageAt}
				} else {
					m.Blocks = blocks
				}
				return nil
			}
			m.Blocks = blocks
		}
		if body, ok := row[at+2].([]byte); ok {
			m.Blocks = append(m.Blocks, body)
		}
		return nil
	}})
	if err == nil && current >= 0 {
		err = fn(&m)
	}
	return found, branched, err
}

// scanFromSQL reads the messages of session $1 from seq $2 to $3 with their blocks, and
// whether the session branched; none of a session that branched when $4. A session that
// exists and has no message in the range is one row of NULL messages.
const scanFromSQL = `SELECT ` + messageColumns + `, m.body, m.layout, b.body, s.branched
	FROM sessions s LEFT JOIN messages m ON m.sid = s.sid AND m.seq >= $2 AND m.seq <= $3 AND NOT (s.branched AND $4::boolean)
		LEFT JOIN blocks b ON m.body IS NULL AND b.sid = m.sid AND b.seq = m.seq
	WHERE s.id = $1 ORDER BY m.seq, b.idx`

// ScanMessagesBackward calls fn for the messages of a session's main conversation (not its
// sidechains) from the last back to seq fromSeq, until fn returns false: one statement, as
// scanFrom.
func (s *Store) ScanMessagesBackward(sessionID string, fromSeq int64, fn func(*session.StoredMessage) bool) error {
	err := s.readByID(sessionID, "reading messages", func(c conn) (found bool, err error) {
		r := backwardReader{sessionID: sessionID, fn: fn, current: -1}
		err = c.query(`SELECT `+backwardColumns+`
			FROM sessions s LEFT JOIN messages m ON m.sid = s.sid AND m.seq >= $2 AND NOT m.is_sidechain
				LEFT JOIN blocks b ON m.body IS NULL AND b.sid = m.sid AND b.seq = m.seq
			WHERE s.id = $1 ORDER BY m.seq DESC, b.idx`, []any{sessionID, fromSeq}, func(row []any) error {
			found = true
			return r.row(row)
		})
		if err == nil {
			r.end()
		}
		return found, err
	})
	if errors.Is(err, session.StopScan) {
		return nil
	}
	return err
}

// backwardColumns are the columns of a message m, with its block rows b, that a
// backwardReader reads.
const backwardColumns = `m.seq, m.uuid, m.type, m.role, m.created_at, b.body, m.body, m.layout`

// backwardReader turns the rows of a backward scan (backwardColumns, newest message first,
// each message's blocks in order) into messages, calling fn with each until it returns
// false.
type backwardReader struct {
	sessionID string
	fn        func(*session.StoredMessage) bool
	m         session.StoredMessage
	current   int64 // the seq of m, -1 before the first message
}

// row reads one row, a NULL message (a session without messages) passed over; it returns
// session.StopScan once fn returned false.
func (r *backwardReader) row(row []any) error {
	seq, ok := row[0].(int64)
	if !ok {
		return nil
	}
	if seq != r.current {
		if r.current >= 0 && !r.fn(&r.m) {
			return session.StopScan
		}
		r.current = seq
		r.m = session.StoredMessage{Seq: seq, UUID: row[1].(string), SessionID: r.sessionID, Type: row[2].(string),
			Role: row[3].(string), CreatedAt: time.UnixMilli(row[4].(int64)).UTC(), Blocks: r.m.Blocks[:0]}
		if body, ok := row[6].([]byte); ok {
			var err error
			_, _, r.m.Blocks, err = bodyBlocks(body, row[7].([]byte), r.m.Blocks, seq)
			return err
		}
	}
	if body, ok := row[5].([]byte); ok {
		r.m.Blocks = append(r.m.Blocks, body)
	}
	return nil
}

// end calls fn with the last message read, if any.
func (r *backwardReader) end() {
	if r.current >= 0 {
		r.fn(&r.m)
	}
}

// Turns returns a session's turns as positions in its main conversation (see the SQLite
// backend's Turns, whose rules this query keeps).
func (s *Store) Turns(sessionID string) ([]session.Turn, error) {
	turns := []session.Turn{}
	err := s.readSession(sessionID, "reading turns", func(c conn, sid int64) error {
		return c.query(`SELECT turn, MIN(pos), MAX(pos) FROM (
				SELECT turn, SUM(CASE WHEN continues THEN 0 ELSE 1 END) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) - 1 AS pos
				FROM messages m WHERE sid = $1 AND NOT is_sidechain AND role <> ''
					AND NOT (status = 'interrupted' AND body IS NULL
						AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.sid = m.sid AND b.seq = m.seq))) t
			GROUP BY turn ORDER BY turn`, []any{sid}, func(row []any) error {
			turns = append(turns, session.Turn{Index: row[0].(int64), StartIndex: row[1].(int64), EndIndex: row[2].(int64)})
			return nil
		})
	})
	return turns, err
}

// ToolUseSeq returns the seq of the record of a session holding the tool_use block
// toolUseID, and whether there is one.
func (s *Store) ToolUseSeq(sessionID, toolUseID string) (seq int64, found bool, err error) {
	err = s.read(func(c conn) error {
		return c.query(`SELECT seq FROM tool_uses WHERE sid = (SELECT sid FROM sessions WHERE id = $1) AND tool_use_id = $2`,
			[]any{sessionID, toolUseID}, func(row []any) error {
				seq, found = row[0].(int64)
				return nil
			})
	})
	return seq, found, storageError("looking up a tool use", err)
}

// Branched reports whether a session may hold records off the branch that ends at its
// newest main-chain record.
func (s *Store) Branched(sessionID string) (bool, error) {
	branched, found := false, false
	err := s.read(func(c conn) error {
		return c.query(`SELECT branched FROM sessions WHERE id = $1`, []any{sessionID}, func(row []any) error {
			found, branched = true, row[0].(bool)
			return nil
		})
	})
	if err == nil && !found {
		return false, notFound(sessionID, errUnknownSession)
	}
	return branched, storageError("reading the branches of session "+sessionID, err)
}

// ScanLinks calls fn for each record of a session, in order, with its place in the tree;
// for a sidechain record, the seq of the tool call that started it.
func (s *Store) ScanLinks(sessionID string, fn func(*session.Link) error) error {
	return s.readSession(sessionID, "reading the tree", func(c conn, sid int64) error {
		var l session.Link
		return c.query(`SELECT m.seq, m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.is_sidechain, m.continues,
				m.input_tokens, m.output_tokens, m.cache_read_tokens, m.cache_creation_tokens,
				CASE WHEN m.is_sidechain THEN (SELECT t.seq FROM tool_uses t WHERE t.sid = m.sid
					AND t.tool_use_id = json_field(m.extra, 'parentToolUseId')) END
			FROM messages m WHERE m.sid = $1 ORDER BY m.seq`, []any{sid}, func(row []any) error {
			l = session.Link{
				Seq: row[0].(int64), UUID: row[1].(string), ParentUUID: row[2].(string), Type: row[3].(string),
				Role: row[4].(string), Turn: row[5].(int64), IsSidechain: row[6].(bool), Continues: row[7].(bool),
				Usage: session.Usage{InputTokens: row[8].(int64), OutputTokens: row[9].(int64),
					CacheReadInputTokens: row[10].(int64), CacheCreationInputTokens: row[11].(int64)},
				ToolUseSeq: -1,
			}
			if seq, ok := row[12].(int64); ok {
				l.ToolUseSeq = seq
			}
			return fn(&l)
		})
	})
}
