package sqlite

import (
	"database/sql/driver"

	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// readSession runs fn with the database key of a session, on a read connection.
func (s *Store) readSession(sessionID, what string, fn func(c *sqlconn.Conn, sid int64) error) error {
	return s.read(func(c *sqlconn.Conn) error {
		sid, err := lookupSID(c, sessionID)
		if err != nil {
			return notFound(sessionID, err)
		}
		return sqlconn.Wrap(what+" of session "+sessionID, fn(c, sid))
	})
}

// cacheSession is readSession as the context cache's reads run it (contextcache.Reads).
func (s *Store) cacheSession(sessionID, what string, fn func(db contextcache.DB, sid int64) error) error {
	return s.readSession(sessionID, what, func(c *sqlconn.Conn, sid int64) error { return fn(cacheDB{c}, sid) })
}

// cacheDB is a connection as the context cache uses it.
type cacheDB struct{ c *sqlconn.Conn }

// Query runs a statement and calls fn with each row, as sqlconn.Conn.Query does.
func (d cacheDB) Query(query string, args []any, fn func(row []any) error) error {
	var row []any
	return d.c.Query(query, args, func(values []driver.Value) error {
		row = row[:0]
		for _, v := range values {
			row = append(row, v)
		}
		return fn(row)
	})
}

// Exec runs a statement that returns no rows.
func (d cacheDB) Exec(query string, args ...any) error {
	_, err := d.c.Exec(query, args...)
	return err
}

// ScanContext calls fn for each message with from ≤ seq ≤ to, its blocks cut from its body
// or joined from its block rows, with its counts.
func (s *Store) ScanContext(sessionID string, from, to int64, fn func(*tokens.ContextMessage) error) error {
	return s.readSession(sessionID, "reading messages", func(c *sqlconn.Conn, sid int64) error {
		var m tokens.ContextMessage
		current := int64(-1)
		err := c.Query(`SELECT m.seq, m.uuid, m.type, m.role, m.turn, m.status, m.provider, m.meta, m.extra,
				m.tokens, m.pruned_tokens, m.token_source, b.body, bl.data, m.is_sidechain, m.body, m.layout
			FROM messages m
			LEFT JOIN blocks b ON b.sid = m.sid AND b.seq = m.seq
			LEFT JOIN blobs bl ON bl.id = b.blob_id
			WHERE m.sid = ? AND m.seq >= ? AND m.seq <= ? ORDER BY m.seq, b.idx`, []any{sid, from, to},
			func(row []driver.Value) error {
				if seq := row[0].(int64); seq != current {
					if current >= 0 {
						if err := fn(&m); err != nil {
							return err
						}
					}
					current = seq
					m = scanContextMessage(row, sessionID, m.Blocks[:0])
					var err error
					if m.Extra, err = msgbody.ExtraColumn(m.Extra, seq); err != nil {
						return err
					}
					if body := rowvalue.Bytes(row[15]); body != nil {
						m.Meta, m.Extra, m.Blocks, err = msgbody.FieldsAndBlocks(m.Meta, m.Extra, body, rowvalue.Bytes(row[16]), m.Blocks, seq)
						return err
					}
				}
				if body := rowvalue.Bytes(row[12]); body != nil {
					m.Blocks = append(m.Blocks, body)
				} else if data := rowvalue.Bytes(row[13]); data != nil {
					m.Blocks = append(m.Blocks, data)
				}
				return nil
			})
		if err == nil && current >= 0 {
			err = fn(&m)
		}
		return err
	})
}

func scanContextMessage(row []driver.Value, sessionID string, blocks [][]byte) tokens.ContextMessage {
	m := tokens.ContextMessage{StoredMessage: session.StoredMessage{
		Seq: row[0].(int64), UUID: row[1].(string), SessionID: sessionID, Type: row[2].(string), Role: row[3].(string),
		Turn: row[4].(int64), Status: row[5].(string), Provider: row[6].(string), Meta: rowvalue.Bytes(row[7]),
		Extra: rowvalue.Bytes(row[8]), Blocks: blocks, IsSidechain: row[14].(int64) != 0,
	}}
	if n, ok := row[9].(int64); ok {
		pruned, _ := row[10].(int64)
		m.Count = tokens.TokenCount{Tokens: n, Pruned: pruned, Source: row[11].(string)}
		m.Counted = true
	}
	return m
}
