package sqlite

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// infoColumn is a column of the sessions table read into a SessionInfo: the fields of the
// listing that need it (0: only a listing of every field), and how it is read.
type infoColumn struct {
	name   string
	fields session.InfoFields
	read   func(d *rowDecoder, i int, info *session.SessionInfo)
}

// infoColumns are the columns a listing reads, those of the fields it wants.
var infoColumns = []infoColumn{
	textColumn("id", session.InfoID, func(i *session.SessionInfo) *string { return &i.ID }),
	textColumn("project_path", session.InfoProjectPath, func(i *session.SessionInfo) *string { return &i.ProjectPath }),
	textColumn("title", session.InfoTitle, func(i *session.SessionInfo) *string { return &i.Title }),
	textColumn("provider", session.InfoProvider, func(i *session.SessionInfo) *string { return &i.Provider }),
	textColumn("model", session.InfoModel, func(i *session.SessionInfo) *string { return &i.Model }),
	intColumn("context_window", session.InfoContextWindow, func(i *session.SessionInfo) *int64 { return &i.ContextWindow }),
	timeColumn("created_at", session.InfoCreatedAt, func(i *session.SessionInfo) *time.Time { return &i.CreatedAt }),
	timeColumn("updated_at", session.InfoUpdatedAt, func(i *session.SessionInfo) *time.Time { return &i.UpdatedAt }),
	timeColumn("last_message_at", session.InfoLastMessageAt, func(i *session.SessionInfo) *time.Time { return &i.LastMessageAt }),
	timeColumn("last_accessed_at", session.InfoLastAccessedAt, func(i *session.SessionInfo) *time.Time { return &i.LastAccessedAt }),
	timeColumn("archived_at", session.InfoArchivedAt|session.InfoStatus, func(i *session.SessionInfo) *time.Time { return &i.ArchivedAt }),
	intColumn("message_count", session.InfoMessageCount, func(i *session.SessionInfo) *int64 { return &i.MessageCount }),
	intColumn("tool_count", session.InfoToolCount, func(i *session.SessionInfo) *int64 { return &i.ToolCount }),
	intColumn("input_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.InputTokens }),
	intColumn("output_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.OutputTokens }),
	intColumn("cache_read_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.CacheReadInputTokens }),
	intColumn("cache_creation_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.CacheCreationInputTokens }),
	intColumn("context_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.ContextTokens }),
	textColumn("status", session.InfoStatus, func(i *session.SessionInfo) *string { return &i.Status }),
	textColumn("corruption", session.InfoCorruption|session.InfoStatus, func(i *session.SessionInfo) *string { return &i.Corruption }),
	{"session_key", session.InfoKey, func(d *rowDecoder, i int, info *session.SessionInfo) {
		info.Key = d.optionalText(i, "session_key")
	}},
	{"checkpoint", session.InfoCheckpoint, func(d *rowDecoder, i int, info *session.SessionInfo) {
		info.Checkpoint = d.optionalInteger(i, "checkpoint")
	}},
	textColumn("sdk_session_id", session.InfoSDKSession, func(i *session.SessionInfo) *string { return &i.SDKSession }),
	intColumn("redactions", session.InfoRedactions, func(i *session.SessionInfo) *int64 { return &i.Redactions }),
	intColumn("seen_seq", 0, func(i *session.SessionInfo) *int64 { return &i.SeenSeq }),
	{"forked_from", session.InfoForkedFrom, func(d *rowDecoder, i int, info *session.SessionInfo) {
		if from := d.text(i, "forked_from"); from != "" {
			info.ForkedFrom = &session.ForkOrigin{SessionID: from, UUID: d.text(i+1, "forked_from_uuid")}
		}
	}},
	{"forked_from_uuid", session.InfoForkedFrom, nil}, // read with forked_from
}

// textColumn, intColumn and timeColumn read a column of that type into the field of a
// SessionInfo that to points at.
func textColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *string) infoColumn {
	return infoColumn{name, fields, func(d *rowDecoder, i int, info *session.SessionInfo) { *to(info) = d.text(i, name) }}
}

func intColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *int64) infoColumn {
	return infoColumn{name, fields, func(d *rowDecoder, i int, info *session.SessionInfo) { *to(info) = d.integer(i, name) }}
}

func timeColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *time.Time) infoColumn {
	return infoColumn{name, fields, func(d *rowDecoder, i int, info *session.SessionInfo) { *to(info) = d.time(i, name) }}
}

// infoSelection is the columns a listing of some fields reads, in the order selected.
type infoSelection []infoColumn

// selectInfo returns the columns the fields f need.
func selectInfo(f session.InfoFields) infoSelection {
	var sel infoSelection
	for _, c := range infoColumns {
		if c.fields&f != 0 || f == session.AllInfoFields {
			sel = append(sel, c)
		}
	}
	return sel
}

// allInfo is the selection of every column, for reads of one whole listing.
var allInfo = selectInfo(session.AllInfoFields)

// sql returns the selected column names, comma separated.
func (sel infoSelection) sql() string {
	names := make([]string, len(sel))
	for i, c := range sel {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// scan reads a session's listing from row. A column holding a value of the wrong type (the
// file was damaged or edited by hand) does not fail the listing: the session is listed as
// corrupted, saying which column is bad, so every other session still lists.
func (sel infoSelection) scan(row []driver.Value) session.SessionInfo {
	d := rowDecoder{row: row}
	var info session.SessionInfo
	for i, c := range sel {
		if c.read != nil {
			c.read(&d, i, &info)
		}
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
func (s *Store) ListSessions(filter catalog.ListFilter) ([]session.SessionInfo, error) {
	var where []string
	var args []any
	if filter.ProjectPath != "" {
		where = append(where, `project_path = ?`)
		args = append(args, filter.ProjectPath)
	}
	if !filter.IncludeArchived {
		where = append(where, `archived_at = 0`)
	}
	want := filter.Want
	if want == 0 {
		want = session.AllInfoFields
	}
	sel := selectInfo(want)
	query := `SELECT ` + sel.sql() + ` FROM sessions`
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
	return s.listInfo(sel, query, args, "listing sessions")
}

// FindSessions returns up to limit sessions whose id starts with prefix, in id order,
// reading a range of the id index.
func (s *Store) FindSessions(prefix string, limit int) ([]session.SessionInfo, error) {
	query := `SELECT ` + allInfo.sql() + ` FROM sessions WHERE id >= ? AND `
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
	return s.listInfo(allInfo, query, args, fmt.Sprintf("finding sessions by id prefix %q", prefix))
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

func (s *Store) listInfo(sel infoSelection, query string, args []any, what string) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c *conn) error {
		return c.query(query, args, func(row []driver.Value) error {
			list = append(list, sel.scan(row))
			return nil
		})
	})
	return list, storageError(what, err)
}
