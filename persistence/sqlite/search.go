package sqlite

import (
	"database/sql/driver"
	"errors"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// snippetTokens is how many words a search snippet holds around the match.
const snippetTokens = 16

// Search returns the messages whose text matches q, best first (FTS5's bm25 rank over the
// text of their blocks), each message once. It first lets the index catch up with every
// block committed before the call.
func (s *Store) Search(q session.SearchQuery) ([]session.SearchHit, error) {
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
	hits := []session.SearchHit{}
	seen := map[string]bool{}
	err = s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			d := rowDecoder{row: row}
			h := session.SearchHit{
				SessionID: d.text(0, "id"), MessageUUID: d.text(1, "uuid"), Snippet: d.text(2, "snippet"), Role: d.text(3, "role"),
				Timestamp: time.UnixMilli(d.integer(4, "created_at")).UTC(), SessionTitle: d.text(5, "title"), ProjectPath: d.text(6, "project_path"),
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

// UsageByDay sums the usage of messages by day and model.
func (s *Store) UsageByDay(f session.StatsFilter) ([]session.UsageRow, error) {
	query := `SELECT date(m.created_at / 1000 + ?, 'unixepoch') AS day,
			coalesce(nullif(CASE WHEN json_valid(CAST(m.meta AS TEXT)) THEN json_extract(CAST(m.meta AS TEXT), '$.model') END, ''),
				nullif(s.model, ''), 'unknown') AS usage_model,
			COUNT(*), SUM(m.input_tokens), SUM(m.output_tokens), SUM(m.cache_read_tokens), SUM(m.cache_creation_tokens)
		FROM messages m JOIN sessions s ON s.sid = m.sid
		WHERE m.input_tokens + m.output_tokens + m.cache_read_tokens + m.cache_creation_tokens > 0`
	args := []any{f.UTCOffsetMinutes * 60}
	if f.ProjectPath != "" {
		query += ` AND s.project_path = ?`
		args = append(args, f.ProjectPath)
	}
	if !f.Since.IsZero() {
		query += ` AND m.created_at >= ?`
		args = append(args, f.Since.UnixMilli())
	}
	if !f.Until.IsZero() {
		query += ` AND m.created_at < ?`
		args = append(args, f.Until.UnixMilli())
	}
	query += ` GROUP BY day, usage_model ORDER BY day, usage_model`
	rows := []session.UsageRow{}
	err := s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			d := rowDecoder{row: row}
			rows = append(rows, session.UsageRow{Day: d.text(0, "day"), ModelUsage: session.ModelUsage{
				Model: d.text(1, "model"), Requests: d.integer(2, "requests"), InputTokens: d.integer(3, "input_tokens"),
				OutputTokens: d.integer(4, "output_tokens"), CacheReadInputTokens: d.integer(5, "cache_read_tokens"),
				CacheCreationInputTokens: d.integer(6, "cache_creation_tokens"),
			}})
			return nil
		})
	})
	return rows, storageError("summing usage by day", err)
}
