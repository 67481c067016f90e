package sqlite

import (
	"database/sql/driver"
	"errors"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// snippetTokens is how many words a search snippet holds around the match.
const snippetTokens = 16

// Search returns the messages whose text matches q, best first (FTS5's bm25 rank), each
// message once: a completed message is matched by its body (body_search), one with no body
// by its blocks (message_search). It first lets the index catch up with every message and
// block committed before the call; its prefixes are expanded into the terms they start
// (matchExpression).
func (s *Store) Search(q catalog.SearchQuery) ([]catalog.SearchHit, error) {
	if err := q.CheckText(); err != nil {
		return nil, err
	}
	if err := s.w.catchUpIndex(); err != nil {
		return nil, err
	}
	query := `SELECT s.id, m.uuid, h.snippet, m.role, m.created_at, s.title, s.project_path
		FROM (SELECT mb.mid AS mid, snippet(body_search, 0, ?1, ?2, '…', ?3) AS snippet, rank AS r
				FROM body_search JOIN messages mb ON mb.mid = body_search.rowid WHERE body_search MATCH ?4
			UNION ALL
			SELECT mr.mid, snippet(message_search, 0, ?1, ?2, '…', ?3), rank
				FROM message_search JOIN blocks b ON b.bid = message_search.rowid
				JOIN messages mr ON mr.sid = b.sid AND mr.seq = b.seq WHERE message_search MATCH ?4) h
		JOIN messages m ON m.mid = h.mid
		JOIN sessions s ON s.sid = m.sid`
	args := []any{q.Highlight[0], q.Highlight[1], snippetTokens, nil}
	if q.ProjectPath != "" {
		query += ` WHERE s.project_path = ?5`
		args = append(args, q.ProjectPath)
	}
	query += ` ORDER BY h.r`
	hits := []catalog.SearchHit{}
	seen := map[string]bool{}
	err := s.read(func(c *sqlconn.Conn) error {
		match, err := matchExpression(c, q.Words())
		if err != nil {
			return err
		}
		args[3] = match
		return c.Query(query, args, func(row []driver.Value) error {
			d := rowDecoder{row: row}
			h := catalog.SearchHit{
				SessionID: d.Text(0, "id"), MessageUUID: d.Text(1, "uuid"), Snippet: d.Text(2, "snippet"), Role: d.Text(3, "role"),
				Timestamp: time.UnixMilli(d.Integer(4, "created_at")).UTC(), SessionTitle: d.Text(5, "title"), ProjectPath: d.Text(6, "project_path"),
			}
			if seen[h.MessageUUID] {
				return nil // another block of a message already found
			}
			seen[h.MessageUUID] = true
			hits = append(hits, h)
			if len(hits) == q.Limit {
				return errStopScan
			}
			return nil
		})
	})
	if errors.Is(err, errStopScan) {
		err = nil
	}
	return hits, sqlconn.Wrap("searching for "+q.Text, err)
}
