package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// cacheSession is readSession as the context cache's reads run it (contextcache.Reads).
func (s *Store) cacheSession(sessionID, what string, fn func(db contextcache.DB, sid int64) error) error {
	return s.readSession(sessionID, what, func(c conn, sid int64) error { return fn(cacheDB{c}, sid) })
}

// ScanContext calls fn for each message with from ≤ seq ≤ to, with its blocks and counts.
func (s *Store) ScanContext(sessionID string, from, to int64, fn func(*tokens.ContextMessage) error) error {
	return s.readSession(sessionID, "reading messages", func(c conn, sid int64) error {
		var m tokens.ContextMessage
		current := int64(-1)
		err := c.query(`SELECT m.seq, m.uuid, m.type, m.role, m.turn, m.status, m.provider, m.meta, m.extra,
				m.tokens, m.pruned_tokens, m.token_source, b.body, m.is_sidechain, m.body, m.layout
			FROM messages m LEFT JOIN blocks b ON m.body IS NULL AND b.sid = m.sid AND b.seq = m.seq
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
					if body, ok := row[14].([]byte); ok {
						var err error
						_, _, m.Blocks, err = bodyBlocks(body, row[15].([]byte), m.Blocks, m.Seq)
						return err
					}
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
