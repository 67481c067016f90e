// Package infocolumns is the sessions table's listing columns as both storage backends read
// them: which column holds which field of a session.SessionInfo, which listing fields need
// it, and how its value is read. A backend supplies the Decoder for its rows.
package infocolumns

import (
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// Decoder reads the columns of one row by type. A backend whose values can be of the wrong
// type (SQLite) notes the names of such columns and returns the zero value.
type Decoder interface {
	Text(i int, name string) string
	OptionalText(i int, name string) string // "" for NULL
	Integer(i int, name string) int64
	OptionalInteger(i int, name string) *int64 // nil for NULL
}

// Column is a column of the sessions table read into a SessionInfo: the fields of the
// listing that need it (0: only a listing of every field), and how it is read.
type Column struct {
	Name   string
	Fields session.InfoFields
	Read   func(d Decoder, i int, info *session.SessionInfo) // nil: read with the column before
}

// columns are the columns a listing reads, those of the fields it wants.
var columns = []Column{
	text("id", session.InfoID, func(i *session.SessionInfo) *string { return &i.ID }),
	text("project_path", session.InfoProjectPath, func(i *session.SessionInfo) *string { return &i.ProjectPath }),
	text("title", session.InfoTitle, func(i *session.SessionInfo) *string { return &i.Title }),
	text("provider", session.InfoProvider, func(i *session.SessionInfo) *string { return &i.Provider }),
	text("model", session.InfoModel, func(i *session.SessionInfo) *string { return &i.Model }),
	integer("context_window", session.InfoContextWindow, func(i *session.SessionInfo) *int64 { return &i.ContextWindow }),
	moment("created_at", session.InfoCreatedAt, func(i *session.SessionInfo) *time.Time { return &i.CreatedAt }),
	moment("updated_at", session.InfoUpdatedAt, func(i *session.SessionInfo) *time.Time { return &i.UpdatedAt }),
	moment("last_message_at", session.InfoLastMessageAt, func(i *session.SessionInfo) *time.Time { return &i.LastMessageAt }),
	moment("last_accessed_at", session.InfoLastAccessedAt, func(i *session.SessionInfo) *time.Time { return &i.LastAccessedAt }),
	moment("archived_at", session.InfoArchivedAt|session.InfoStatus, func(i *session.SessionInfo) *time.Time { return &i.ArchivedAt }),
	integer("message_count", session.InfoMessageCount, func(i *session.SessionInfo) *int64 { return &i.MessageCount }),
	integer("tool_count", session.InfoToolCount, func(i *session.SessionInfo) *int64 { return &i.ToolCount }),
	integer("input_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.InputTokens }),
	integer("output_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.OutputTokens }),
	integer("cache_read_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.CacheReadInputTokens }),
	integer("cache_creation_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.CacheCreationInputTokens }),
	integer("context_tokens", session.InfoTokens, func(i *session.SessionInfo) *int64 { return &i.Tokens.ContextTokens }),
	text("status", session.InfoStatus, func(i *session.SessionInfo) *string { return &i.Status }),
	text("corruption", session.InfoCorruption|session.InfoStatus, func(i *session.SessionInfo) *string { return &i.Corruption }),
	{"session_key", session.InfoKey, func(d Decoder, i int, info *session.SessionInfo) {
		info.Key = d.OptionalText(i, "session_key")
	}},
	{"checkpoint", session.InfoCheckpoint, func(d Decoder, i int, info *session.SessionInfo) {
		info.Checkpoint = d.OptionalInteger(i, "checkpoint")
	}},
	text("sdk_session_id", session.InfoSDKSession, func(i *session.SessionInfo) *string { return &i.SDKSession }),
	integer("redactions", session.InfoRedactions, func(i *session.SessionInfo) *int64 { return &i.Redactions }),
	integer("seen_seq", 0, func(i *session.SessionInfo) *int64 { return &i.SeenSeq }),
	{"forked_from", session.InfoForkedFrom, func(d Decoder, i int, info *session.SessionInfo) {
		if from := d.Text(i, "forked_from"); from != "" {
			info.ForkedFrom = &session.ForkOrigin{SessionID: from, UUID: d.Text(i+1, "forked_from_uuid")}
		}
	}},
	{"forked_from_uuid", session.InfoForkedFrom, nil}, // read with forked_from
}

// text, integer and moment read a column of that type into the field of a SessionInfo
// that to points at.
func text(name string, fields session.InfoFields, to func(*session.SessionInfo) *string) Column {
	return Column{name, fields, func(d Decoder, i int, info *session.SessionInfo) { *to(info) = d.Text(i, name) }}
}

func integer(name string, fields session.InfoFields, to func(*session.SessionInfo) *int64) Column {
	return Column{name, fields, func(d Decoder, i int, info *session.SessionInfo) { *to(info) = d.Integer(i, name) }}
}

// moment reads milliseconds since the epoch; 0 is the zero time, "never".
func moment(name string, fields session.InfoFields, to func(*session.SessionInfo) *time.Time) Column {
	return Column{name, fields, func(d Decoder, i int, info *session.SessionInfo) {
		if ms := d.Integer(i, name); ms != 0 {
			*to(info) = time.UnixMilli(ms).UTC()
		}
	}}
}

// Selection is the columns a listing of some fields reads, in the order selected.
type Selection []Column

// Select returns the columns the fields f need.
func Select(f session.InfoFields) Selection {
	var sel Selection
	for _, c := range columns {
		if c.Fields&f != 0 || f == session.AllInfoFields {
			sel = append(sel, c)
		}
	}
	return sel
}

// All is the selection of every column, for reads of one whole listing.
var All = Select(session.AllInfoFields)

// SQL returns the selected column names, comma separated.
func (sel Selection) SQL() string {
	names := make([]string, len(sel))
	for i, c := range sel {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// Scan reads a session's listing through d, its status as listings show it: corrupted when
// it has a corruption (unreadable, unless empty, names the columns d could not read), else
// archived when archived.
func (sel Selection) Scan(d Decoder, unreadable func() []string) session.SessionInfo {
	var info session.SessionInfo
	sel.ScanInto(d, unreadable, &info)
	return info
}

// ScanInto is Scan into *info, which it clears first: a listing read row by row reuses one
// SessionInfo, where Scan's escapes to the heap (the columns' readers take its address), an
// allocation per row.
func (sel Selection) ScanInto(d Decoder, unreadable func() []string, info *session.SessionInfo) {
	*info = session.SessionInfo{}
	for i, c := range sel {
		if c.Read != nil {
			c.Read(d, i, info)
		}
	}
	if bad := unreadable(); len(bad) > 0 {
		info.Corruption = strings.TrimPrefix(info.Corruption+"; ", "; ") + "unreadable columns: " + strings.Join(bad, ", ")
	}
	switch {
	case info.Corruption != "":
		info.Status = session.StatusCorrupted
	case !info.ArchivedAt.IsZero():
		info.Status = session.StatusArchived
	}
}
