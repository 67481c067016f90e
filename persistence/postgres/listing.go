package postgres

import (
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
	read   func(v any, info *session.SessionInfo)
}

// infoColumns are the columns a listing reads, those of the fields it wants. PostgreSQL
// checks each column's type, so a value is read by assertion.
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
	{"session_key", session.InfoKey, func(v any, info *session.SessionInfo) { info.Key, _ = v.(string) }},
	{"checkpoint", session.InfoCheckpoint, func(v any, info *session.SessionInfo) {
		if n, ok := v.(int64); ok {
			info.Checkpoint = &n
		}
	}},
	textColumn("sdk_session_id", session.InfoSDKSession, func(i *session.SessionInfo) *string { return &i.SDKSession }),
	intColumn("redactions", session.InfoRedactions, func(i *session.SessionInfo) *int64 { return &i.Redactions }),
	intColumn("seen_seq", 0, func(i *session.SessionInfo) *int64 { return &i.SeenSeq }),
	// forked_from and forked_from_uuid as one column, since one field needs both.
	{"CASE WHEN forked_from <> '' THEN forked_from || ' ' || forked_from_uuid END", session.InfoForkedFrom,
		func(v any, info *session.SessionInfo) {
			if from, ok := v.(string); ok {
				id, uuid, _ := strings.Cut(from, " ")
				info.ForkedFrom = &session.ForkOrigin{SessionID: id, UUID: uuid}
			}
		}},
}

// textColumn, intColumn and timeColumn read a column of that type into the field of a
// SessionInfo that to points at.
func textColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *string) infoColumn {
	return infoColumn{name, fields, func(v any, info *session.SessionInfo) { *to(info), _ = v.(string) }}
}

func intColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *int64) infoColumn {
	return infoColumn{name, fields, func(v any, info *session.SessionInfo) { *to(info), _ = v.(int64) }}
}

// timeColumn reads milliseconds since the epoch; 0 is the zero time, "never".
func timeColumn(name string, fields session.InfoFields, to func(*session.SessionInfo) *time.Time) infoColumn {
	return infoColumn{name, fields, func(v any, info *session.SessionInfo) {
		if ms, _ := v.(int64); ms != 0 {
			*to(info) = time.UnixMilli(ms).UTC()
		}
	}}
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

// sql returns the selected columns, comma separated.
func (sel infoSelection) sql() string {
	names := make([]string, len(sel))
	for i, c := range sel {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// scan reads a session's listing from row, its status as the listing shows it.
func (sel infoSelection) scan(row []any) session.SessionInfo {
	var info session.SessionInfo
	for i, c := range sel {
		c.read(row[i], &info)
	}
	switch {
	case info.Corruption != "":
		info.Status = session.StatusCorrupted
	case !info.ArchivedAt.IsZero():
		info.Status = session.StatusArchived
	}
	return info
}

// ListSessions returns sessions newest first: by their last write, then newest created.
func (s *Store) ListSessions(filter catalog.ListFilter) ([]session.SessionInfo, error) {
	var where []string
	var args []any
	if filter.ProjectPath != "" {
		args = append(args, filter.ProjectPath)
		where = append(where, fmt.Sprintf(`project_path = $%d`, len(args)))
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
	if filter.Limit > 0 {
		args = append(args, filter.Limit)
		query += fmt.Sprintf(` LIMIT $%d`, len(args))
	}
	if filter.Offset > 0 {
		args = append(args, filter.Offset)
		query += fmt.Sprintf(` OFFSET $%d`, len(args))
	}
	return s.listInfo(sel, query, args, "listing sessions")
}

// FindSessions returns up to limit sessions whose id starts with prefix, in id order.
func (s *Store) FindSessions(prefix string, limit int) ([]session.SessionInfo, error) {
	query := `SELECT ` + allInfo.sql() + ` FROM sessions WHERE left(id, length($1)) = $1 ORDER BY id COLLATE "C" LIMIT $2`
	return s.listInfo(allInfo, query, []any{prefix, limit}, fmt.Sprintf("finding sessions by id prefix %q", prefix))
}

func (s *Store) listInfo(sel infoSelection, query string, args []any, what string) ([]session.SessionInfo, error) {
	list := []session.SessionInfo{}
	err := s.read(func(c conn) error {
		return c.query(query, args, func(row []any) error {
			list = append(list, sel.scan(row))
			return nil
		})
	})
	return list, storageError(what, err)
}
