package sqlite

import (
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// SessionDetails returns a session's listing with its message counts by type and its
// token usage by model: the model a message names, else the session's.
func (s *Store) SessionDetails(id string) (session.SessionDetails, error) {
	var d session.SessionDetails
	err := s.read(func(c *conn) error {
		sid := int64(-1)
		err := c.query(`SELECT sid, `+allInfo.sql()+` FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
			sid = row[0].(int64)
			d.SessionInfo = allInfo.scan(row[1:])
			return nil
		})
		if err != nil {
			return err
		}
		if sid < 0 {
			return fmt.Errorf("%w: no session has id %q", session.ErrSessionNotFound, id)
		}
		err = c.query(`SELECT type, COUNT(*) FROM messages WHERE sid = ? GROUP BY type`, []any{sid}, func(row []driver.Value) error {
			switch row[0] {
			case session.TypeUser:
				d.Interactions = row[1].(int64)
			case session.TypeAssistant:
				d.AssistantMessages = row[1].(int64)
			case session.TypeToolResult:
				d.ToolResults = row[1].(int64)
			}
			return nil
		})
		if err != nil {
			return err
		}
		d.Usage, err = usageByModel(c, sid, d.Model)
		return err
	})
	return d, storageError("reading the details of session "+id, err)
}

// usageByModel sums the usage of a session's messages by model.
func usageByModel(c *conn, sid int64, sessionModel string) ([]session.ModelUsage, error) {
	usage := []session.ModelUsage{}
	err := c.query(`SELECT coalesce(nullif(CASE WHEN json_valid(CAST(meta AS TEXT)) THEN json_extract(CAST(meta AS TEXT), '$.model') END, ''), ?) AS usage_model, COUNT(*),
			SUM(input_tokens), SUM(output_tokens), SUM(cache_read_tokens), SUM(cache_creation_tokens)
		FROM messages
		WHERE sid = ? AND input_tokens + output_tokens + cache_read_tokens + cache_creation_tokens > 0
		GROUP BY usage_model ORDER BY usage_model`, []any{sessionModel, sid}, func(row []driver.Value) error {
		model, _ := row[0].(string)
		usage = append(usage, session.ModelUsage{
			Model: model, Requests: row[1].(int64), InputTokens: row[2].(int64), OutputTokens: row[3].(int64),
			CacheReadInputTokens: row[4].(int64), CacheCreationInputTokens: row[5].(int64),
		})
		return nil
	})
	return usage, err
}
