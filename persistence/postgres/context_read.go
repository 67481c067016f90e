package postgres

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// inConversation selects the records of the main conversation: messages (a record that is
// not one has no role) not on a subagent's sidechain.
const inConversation = `NOT is_sidechain AND role <> ''`

// ContextIndex returns the totals of the last counted message and the latest boundary.
func (s *Store) ContextIndex(sessionID string) (contextbuild.ContextIndex, error) {
	idx := contextbuild.ContextIndex{LastSeq: -1}
	err := s.readSession(sessionID, "reading the context index", func(c conn, sid int64) error {
		err := c.query(`SELECT seq, turn, cum_tokens, cum_pruned FROM messages WHERE sid = $1 AND cum_tokens IS NOT NULL
			AND `+inConversation+` ORDER BY seq DESC LIMIT 1`, []any{sid}, func(row []any) error {
			idx.LastSeq, idx.LastTurn = row[0].(int64), row[1].(int64)
			idx.Total = contextbuild.Cum{Tokens: row[2].(int64), Pruned: row[3].(int64)}
			return nil
		})
		if err != nil {
			return err
		}
		return c.query(`SELECT boundary_seq, reason, tokens_before, tokens_after, created_at FROM compactions
			WHERE sid = $1 ORDER BY id DESC LIMIT 1`, []any{sid}, func(row []any) error {
			c := scanCompaction(row)
			idx.Boundary = &c
			return nil
		})
	})
	return idx, err
}

// FirstUncounted returns the first message without cumulative counts.
func (s *Store) FirstUncounted(sessionID string) (int64, bool, error) {
	return s.optionalSeq(sessionID, "finding uncounted messages",
		`SELECT MIN(seq) FROM messages WHERE sid = $1 AND cum_tokens IS NULL AND status <> 'streaming'`)
}

// CumAt returns the cumulative counts through message seq.
func (s *Store) CumAt(sessionID string, seq int64) (contextbuild.Cum, error) {
	var cum contextbuild.Cum
	if seq < 0 {
		return cum, nil
	}
	err := s.readSession(sessionID, "reading a cumulative count", func(c conn, sid int64) error {
		return c.query(`SELECT cum_tokens, cum_pruned FROM messages WHERE sid = $1 AND seq = $2`, []any{sid, seq},
			func(row []any) error {
				cum.Tokens, _ = row[0].(int64)
				cum.Pruned, _ = row[1].(int64)
				return nil
			})
	})
	return cum, err
}

// FirstSeqReaching returns the first message whose cumulative count reaches tokens.
func (s *Store) FirstSeqReaching(sessionID string, tokens int64) (int64, bool, error) {
	return s.optionalSeq(sessionID, "searching cumulative counts",
		`SELECT seq FROM messages WHERE sid = $1 AND cum_tokens >= $2 ORDER BY cum_tokens, seq LIMIT 1`, tokens)
}

// TurnStart returns the first seq of a turn.
func (s *Store) TurnStart(sessionID string, turn int64) (int64, bool, error) {
	return s.optionalSeq(sessionID, "finding a turn", `SELECT MIN(seq) FROM messages WHERE sid = $1 AND turn = $2 AND `+inConversation, turn)
}

// CutAtOrAfter returns the first prompt, or with steps the first prompt or assistant
// message, at or after seq.
func (s *Store) CutAtOrAfter(sessionID string, seq int64, steps bool) (int64, bool, error) {
	return s.optionalSeq(sessionID, "finding a cut", `SELECT MIN(seq) FROM messages WHERE sid = $1 AND seq >= $2
		AND (type = 'user' OR ($3 AND role = 'assistant')) AND `+inConversation, seq, steps)
}

// CutAtOrBefore returns the last prompt, or with steps the last prompt or assistant
// message, at or before seq.
func (s *Store) CutAtOrBefore(sessionID string, seq int64, steps bool) (int64, bool, error) {
	return s.optionalSeq(sessionID, "finding a cut", `SELECT MAX(seq) FROM messages WHERE sid = $1 AND seq <= $2
		AND (type = 'user' OR ($3 AND role = 'assistant')) AND `+inConversation, seq, steps)
}

// optionalSeq runs a query for one seq, which may be NULL or missing.
func (s *Store) optionalSeq(sessionID, what, query string, args ...any) (int64, bool, error) {
	seq, found := int64(0), false
	err := s.readSession(sessionID, what, func(c conn, sid int64) error {
		return c.query(query, append([]any{sid}, args...), func(row []any) error {
			seq, found = row[0].(int64)
			return nil
		})
	})
	return seq, found, err
}

// ScanContext calls fn for each message with from ≤ seq ≤ to, with its blocks and counts.
func (s *Store) ScanContext(sessionID string, from, to int64, fn func(*tokens.ContextMessage) error) error {
	return s.readSession(sessionID, "reading messages", func(c conn, sid int64) error {
		var m tokens.ContextMessage
		current := int64(-1)
		err := c.query(`SELECT m.seq, m.uuid, m.type, m.role, m.turn, m.status, m.provider, m.meta, m.extra,
				m.tokens, m.pruned_tokens, m.token_source, b.body, m.is_sidechain
			FROM messages m LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq
			WHERE m.sid = $1 AND m.seq >= $2 AND m.seq <= $3 ORDER BY m.seq, b.idx`, []any{sid, from, to},
			func(row []any) error {
				if seq := row[0].(int64); seq != current {
					if current >= 0 {
						if err := fn(&m); err != nil {
							return err
						}
					}
					current = seq
					m = scanContextMessage(row, sessionID, m.Blocks[:0])
				}
				if body, ok := row[12].([]byte); ok {
					m.Blocks = append(m.Blocks, body)
				}
				return nil
			})
		if err == nil && current >= 0 {
			err = fn(&m)
		}
		return err
	})
}

func scanContextMessage(row []any, sessionID string, blocks [][]byte) tokens.ContextMessage {
	m := tokens.ContextMessage{StoredMessage: session.StoredMessage{
		Seq: row[0].(int64), UUID: row[1].(string), SessionID: sessionID, Type: row[2].(string), Role: row[3].(string),
		Turn: row[4].(int64), Status: row[5].(string), Provider: row[6].(string), Meta: row[7].([]byte),
		Extra: row[8].([]byte), Blocks: blocks, IsSidechain: row[13].(bool),
	}}
	if n, ok := row[9].(int64); ok {
		pruned, _ := row[10].(int64)
		m.Count = tokens.TokenCount{Tokens: n, Pruned: pruned, Source: row[11].(string)}
		m.Counted = true
	}
	return m
}

// Summaries returns the cached summaries that end at or after minTo, by end.
func (s *Store) Summaries(sessionID string, minTo int64) ([]contextbuild.Summary, error) {
	var list []contextbuild.Summary
	err := s.readSession(sessionID, "reading summaries", func(c conn, sid int64) error {
		return c.query(`SELECT from_seq, to_seq, message_count, tokens_before, tokens_after, model, text, created_at
			FROM summaries WHERE sid = $1 AND to_seq >= $2 ORDER BY to_seq, from_seq`, []any{sid, minTo},
			func(row []any) error {
				list = append(list, contextbuild.Summary{FromSeq: row[0].(int64), ToSeq: row[1].(int64),
					MessageCount: row[2].(int64), TokensBefore: row[3].(int64), TokensAfter: row[4].(int64),
					Model: row[5].(string), Text: row[6].(string), CreatedAt: time.UnixMilli(row[7].(int64)).UTC()})
				return nil
			})
	})
	return list, err
}

// Counts calls fn with the counts of each counted record, in seq order.
func (s *Store) Counts(sessionID string, fn func(seq int64, c contextbuild.Cum)) error {
	return s.readSession(sessionID, "reading counts", func(c conn, sid int64) error {
		return c.query(`SELECT seq, tokens, pruned_tokens FROM messages WHERE sid = $1 AND tokens IS NOT NULL ORDER BY seq`,
			[]any{sid}, func(row []any) error {
				fn(row[0].(int64), contextbuild.Cum{Tokens: row[1].(int64), Pruned: row[2].(int64)})
				return nil
			})
	})
}

// Compactions returns a session's compaction boundaries, oldest first.
func (s *Store) Compactions(sessionID string) ([]contextbuild.Compaction, error) {
	var list []contextbuild.Compaction
	err := s.readSession(sessionID, "reading compactions", func(c conn, sid int64) error {
		return c.query(`SELECT boundary_seq, reason, tokens_before, tokens_after, created_at FROM compactions
			WHERE sid = $1 ORDER BY id`, []any{sid}, func(row []any) error {
			list = append(list, scanCompaction(row))
			return nil
		})
	})
	return list, err
}

func scanCompaction(row []any) contextbuild.Compaction {
	return contextbuild.Compaction{Seq: row[0].(int64), Trigger: row[1].(string), TokensBefore: row[2].(int64),
		TokensAfter: row[3].(int64), CreatedAt: time.UnixMilli(row[4].(int64)).UTC()}
}

// ContextState returns the session state folded so far, and through which message.
func (s *Store) ContextState(sessionID string) ([]byte, int64, error) {
	var state []byte
	through := int64(-1)
	err := s.readSession(sessionID, "reading the context state", func(c conn, sid int64) error {
		return c.query(`SELECT state, through FROM context_states WHERE sid = $1`, []any{sid}, func(row []any) error {
			state, through = append([]byte(nil), row[0].([]byte)...), row[1].(int64)
			return nil
		})
	})
	return state, through, err
}
