package sqlite

import (
	"database/sql/driver"
	"errors"
	"time"

	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// snippetTokens is how many words a search snippet holds around the match.
const snippetTokens = 16

// Search returns the messages whose text matches q, best first (FTS5's bm25 rank over the
// text of their blocks), each message once. It first lets the index catch up with every
// block committed before the call.
func (s *Store) Search(q catalog.SearchQuery) ([]catalog.SearchHit, error) {
	match, err := q.MatchExpression()
	if err != nil {
		return nil, err
	}
	if err := s.w.catchUpIndex(); err != nil {
		return nil, err
	}
	query := `SELECT s.id, m.uuid, snippet(message_search, 0, ?, ?, '…', ?), m.role, m.created_at, s.title, s.project_path
		FROM message_search
		JOIN blocks b ON b.bid = message_search.rowid
		JOIN messages m ON m.sid = b.sid AND m.seq = b.seq
		JOIN sessions s ON s.sid = b.sid
		WHERE message_search MATCH ?`
	args := []any{q.Highlight[0], q.Highlight[1], snippetTokens, match}
	if q.ProjectPath != "" {
		query += ` AND s.project_path = ?`
		args = append(args, q.ProjectPath)
	}
	query += ` ORDER BY rank`
	hits := []catalog.SearchHit{}
	seen := map[string]bool{}
	err = s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
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
	return hits, storageError("searching for "+q.Text, err)
}
