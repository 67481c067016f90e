package postgres

import (
	"fmt"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// ScanUsage calls fn for the type, model and usage of each message filter selects. The
// model is read out of the message's meta (json_field), so that what is not a message's
// model reads as none. A message that wrote to the cache is read with its meta, whose model
// and usage object (for the 1-hour part of the write, which has no column) are read here.
func (s *Store) ScanUsage(f catalog.UsageFilter, fn func(*catalog.UsageRecord) error) error {
	query := `SELECT m.type, CASE WHEN m.cache_creation_tokens = 0 THEN json_field(m.meta, 'model') END, s.model, m.created_at,
			m.input_tokens, m.output_tokens, m.cache_read_tokens, m.cache_creation_tokens,
			CASE WHEN m.cache_creation_tokens > 0 THEN m.meta END
		FROM messages m JOIN sessions s ON s.sid = m.sid WHERE true`
	var args []any
	add := func(cond string, arg any) {
		args = append(args, arg)
		query += fmt.Sprintf(cond, len(args))
	}
	if f.SessionID != "" {
		add(` AND m.sid = (SELECT sid FROM sessions WHERE id = $%d)`, f.SessionID)
	}
	if f.ProjectPath != "" {
		add(` AND s.project_path = $%d`, f.ProjectPath)
	}
	if !f.Since.IsZero() {
		add(` AND m.created_at >= $%d`, f.Since.UnixMilli())
	}
	if !f.Until.IsZero() {
		add(` AND m.created_at < $%d`, f.Until.UnixMilli())
	}
	if f.WithUsage {
		query += ` AND m.input_tokens + m.output_tokens + m.cache_read_tokens + m.cache_creation_tokens > 0`
	}
	query += ` ORDER BY m.sid, m.seq`
	err := s.read(func(c conn) error {
		return c.query(query, args, func(row []any) error {
			model, _ := row[1].(string)
			r := catalog.UsageRecord{
				Type: row[0].(string), Model: model, SessionModel: row[2].(string), CreatedAt: time.UnixMilli(row[3].(int64)),
				Usage: session.Usage{InputTokens: row[4].(int64), OutputTokens: row[5].(int64),
					CacheReadInputTokens: row[6].(int64), CacheCreationInputTokens: row[7].(int64)},
			}
			var meta struct{ Model, Usage json.RawMessage } // of a message that wrote to the cache
			if raw, ok := row[8].([]byte); ok && json.Unmarshal(raw, &meta) == nil {
				u, _ := session.ParseUsage(meta.Usage)
				r.ReadMeta(meta.Model, u.CacheCreation1hInputTokens)
			}
			return fn(&r)
		})
	})
	return storageError("reading the usage of messages", err)
}
