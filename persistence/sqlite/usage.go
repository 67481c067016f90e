package sqlite

import (
	"database/sql/driver"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// ScanUsage calls fn for the type, model and usage of each message filter selects. The
// model is read out of the message's meta here, so that what is not a message's model
// (meta that is not JSON, a model that is not a string) reads as none; a meta column left
// empty because the body holds the meta (metaInBody) is read from the body's message. So is
// the 1-hour part of a cache write, from the usage object the meta keeps, for the messages
// that wrote to the cache.
func (s *Store) ScanUsage(f catalog.UsageFilter, fn func(*catalog.UsageRecord) error) error {
	query := `SELECT m.type, CASE WHEN json_valid(CAST(m.meta AS TEXT)) THEN json_extract(CAST(m.meta AS TEXT), '$.model')
				WHEN length(m.meta) = 0 AND json_valid(unpack_body(m.body)) THEN json_extract(unpack_body(m.body), '$.message.model') END,
			s.model, m.created_at, m.input_tokens, m.output_tokens, m.cache_read_tokens, m.cache_creation_tokens,
			CASE WHEN m.cache_creation_tokens = 0 THEN NULL
				WHEN json_valid(CAST(m.meta AS TEXT)) THEN json_extract(CAST(m.meta AS TEXT), '$.usage')
				WHEN length(m.meta) = 0 AND json_valid(unpack_body(m.body)) THEN json_extract(unpack_body(m.body), '$.message.usage') END
		FROM messages m JOIN sessions s ON s.sid = m.sid WHERE 1`
	var args []any
	if f.SessionID != "" {
		query += ` AND m.sid = (SELECT sid FROM sessions WHERE id = ?)`
		args = append(args, f.SessionID)
	}
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
	if f.WithUsage {
		query += ` AND m.input_tokens + m.output_tokens + m.cache_read_tokens + m.cache_creation_tokens > 0`
	}
	err := s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			d := rowDecoder{row: row}
			model, _ := row[1].(string)
			r := catalog.UsageRecord{
				Type: d.Text(0, "type"), Model: model, SessionModel: d.Text(2, "model"),
				CreatedAt: time.UnixMilli(d.Integer(3, "created_at")),
				Usage: session.Usage{InputTokens: d.Integer(4, "input_tokens"), OutputTokens: d.Integer(5, "output_tokens"),
					CacheReadInputTokens: d.Integer(6, "cache_read_tokens"), CacheCreationInputTokens: d.Integer(7, "cache_creation_tokens")},
			}
			if usage, ok := row[8].(string); ok {
				r.CacheCreation1hInputTokens = cacheWrite1h(usage, r.CacheCreationInputTokens)
			}
			return fn(&r)
		})
	})
	return storageError("reading the usage of messages", err)
}

// cacheWrite1h returns the 1-hour part of a cache write of total tokens that the usage
// object usage reports; 0 when it reports none, or is not an object.
func cacheWrite1h(usage string, total int64) int64 {
	if !strings.HasPrefix(usage, "{") {
		return 0
	}
	u, err := session.ParseUsage([]byte(usage))
	if err != nil {
		return 0
	}
	return min(u.CacheCreation1hInputTokens, total)
}
