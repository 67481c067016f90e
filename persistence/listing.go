package persistence

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// sessionColumns are read into a SessionInfo by scanInfo, in this order.
const sessionColumns = `id, project_path, title, provider, model, context_window, created_at, updated_at,
	last_message_at, last_accessed_at, archived_at, message_count, tool_count,
	input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, context_tokens,
	status, corruption, session_key, checkpoint, sdk_session_id, seen_seq, forked_from, forked_from_uuid`

// scanInfo reads a session's listing. A column holding a value of the wrong type (the
// file was damaged or edited by hand) does not fail the listing: the session is listed as
// corrupted, saying which column is bad, so every other session still lists.
func scanInfo(row []driver.Value) session.SessionInfo {
	d := rowDecoder{row: row}
	info := session.SessionInfo{
		ID:             d.text(0, "id"),
		ProjectPath:    d.text(1, "project_path"),
		Title:          d.text(2, "title"),
		Provider:       d.text(3, "provider"),
		Model:          d.text(4, "model"),
		ContextWindow:  d.integer(5, "context_window"),
		CreatedAt:      d.time(6, "created_at"),
		UpdatedAt:      d.time(7, "updated_at"),
		LastMessageAt:  d.time(8, "last_message_at"),
		LastAccessedAt: d.time(9, "last_accessed_at"),
		ArchivedAt:     d.time(10, "archived_at"),
		MessageCount:   d.integer(11, "message_count"),
		ToolCount:      d.integer(12, "tool_count"),
		Tokens: session.TokenTracker{
			InputTokens:              d.integer(13, "input_tokens"),
			OutputTokens:             d.integer(14, "output_tokens"),
			CacheReadInputTokens:     d.integer(15, "cache_read_tokens"),
			CacheCreationInputTokens: d.integer(16, "cache_creation_tokens"),
			ContextTokens:            d.integer(17, "context_tokens"),
		},
		Status:     d.text(18, "status"),
		Corruption: d.text(19, "corruption"),
		Key:        d.optionalText(20, "session_key"),
		Checkpoint: d.optionalInteger(21, "checkpoint"),
		SDKSession: d.text(22, "sdk_session_id"),
		SeenSeq:    d.integer(23, "seen_seq"),
	}
	if from := d.text(24, "forked_from"); from != "" {
		info.ForkedFrom = &session.ForkOrigin{SessionID: from, UUID: d.text(25, "forked_from_uuid")}
	}
	if len(d.bad) > 0 {
		info.Corruption = strings.TrimPrefix(info.Corruption+"; ", "; ") + "unreadable columns: " + strings.Join(d.bad, ", ")
	}
	switch {
	case info.Corruption != "":
		info.Status = session.StatusCorrupted
	case !info.ArchivedAt.IsZero():
		info.Status = session.StatusArchived
	}
	return info
}

// rowDecoder reads the columns of a row, noting the names of those of the wrong type.
type rowDecoder struct {
	row []driver.Value
	bad []string
}

func (d *rowDecoder) text(i int, name string) string {
	switch v := d.row[i].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	d.bad = append(d.bad, name)
	return ""
}

func (d *rowDecoder) optionalText(i int, name string) string {
	if d.row[i] == nil {
		return ""
	}
	return d.text(i, name)
}

func (d *rowDecoder) integer(i int, name string) int64 {
	if v, ok := d.row[i].(int64); ok {
		return v
	}
	d.bad = append(d.bad, name)
	return 0
}

func (d *rowDecoder) optionalInteger(i int, name string) *int64 {
	if d.row[i] == nil {
		return nil
	}
	v := d.integer(i, name)
	return &v
}

// time reads milliseconds since the epoch; 0 is the zero time, "never".
func (d *rowDecoder) time(i int, name string) time.Time {
	ms := d.integer(i, name)
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// ListSessions returns sessions newest first: by their last write, then newest created.
func (s *Store) ListSessions(filter session.ListFilter) ([]session.SessionInfo, error) {
	var where []string
	var args []any
	if filter.ProjectPath != "" {
		where = append(where, `project_path = ?`)
		args = append(args, filter.ProjectPath)
	}
	if !filter.IncludeArchived {
		where = append(where, `archived_at = 0`)
	}
	query := `SELECT ` + sessionColumns + ` FROM sessions`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, ` AND `)
	}
	query += ` ORDER BY updated_at DESC, sid DESC`
	if filter.Limit > 0 || filter.Offset > 0 {
		limit := int64(filter.Limit)
		if limit == 0 {
			limit = -1 // SQLite: no limit
		}
		query += ` LIMIT ? OFFSET ?`
		args = append(args, limit, filter.Offset)
	}
	return s.listInfo(query, args, "listing sessions")
}

// FindSessions returns up to limit sessions whose id starts with prefix, in id order,
// reading a range of the id index.
func (s *Store) FindSessions(prefix string, limit int) ([]session.SessionInfo, error) {
	query := `SELECT ` + sessionColumns + ` FROM sessions WHERE id >= ? AND `
	args := []any{prefix}
	if upper, ok := prefixUpperBound(prefix); ok {
		query += `id < ?`
		args = append(args, upper)
	} else {
		query += `substr(id, 1, ?) = ?`
		args = append(args, len(prefix), prefix)
	}
	query += ` ORDER BY id LIMIT ?`
	args = append(args, limit)
	return s.listInfo(query, args, fmt.Sprintf("finding sessions by id prefix %q", prefix))
}

// prefixUpperBound returns the least string greater than every string that starts with
// prefix, when its last byte can be incremented.
func prefixUpperBound(prefix string) (string, bool) {
	last := prefix[len(prefix)-1]
	if last >= 0x7f {
		return "", false
	}
	return prefix[:len(prefix)-1] + string(last+1), true
}

func (s *Store) listInfo(query string, args []any, what string) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			list = append(list, scanInfo(row))
			return nil
		})
	})
	return list, storageError(what, err)
}

// CountProjectSessions counts the sessions of projectPath and of the folders inside it.
func (s *Store) CountProjectSessions(projectPath string) (int64, error) {
	var n int64
	err := s.read(func(c *conn) error {
		return c.query(`SELECT COUNT(*) FROM sessions
			WHERE project_path = ?1 OR substr(project_path, 1, length(?1) + 1) IN (?1 || '/', ?1 || '\')`,
			[]any{projectPath}, func(row []driver.Value) error {
				n = row[0].(int64)
				return nil
			})
	})
	return n, storageError("counting the sessions of "+projectPath, err)
}
