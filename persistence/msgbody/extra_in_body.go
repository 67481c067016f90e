package msgbody

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// A message's extra fields (session.EnvelopeExtra: the source's own record, its context)
// are written into its body's envelope, byte for byte (jsonenc.AppendObjectFields). On the
// real transcripts the extra column held them a second time: 1.2 MB of a 7.7 MB store. So a
// message whose body holds its extra fields exactly stores an empty extra column
// (ExtraInBody), and readers cut the fields out of the body (ExtraOf).
//
// The column keeps its copy when the body's would differ (extra fields with non-ASCII text,
// which the body escapes). Extra fields that name the tool call that started a sidechain
// keep that one field in the column ({"parentToolUseId":…}, a call-only column), since
// ScanLinks reads it in SQL at every session open and reads no body; the rest is in the
// body, which holds that field too.

// ExtraInBody is the extra column of a message whose body holds its extra fields.
var ExtraInBody = []byte{}

// callField starts a call-only extra column.
var callField = []byte(`{"parentToolUseId":`)

// Where a body's extra fields are: after the fixed envelope fields, whose last is
// isSidechain (and continuesPrevious when set), and before its message.
var (
	sidechainField = []byte(`,"isSidechain":`)
	continuesField = []byte(`,"continuesPrevious":true`)
	messageField   = []byte(`,"message":`)
)

// StoredExtra returns what the extra column of a message holds beside body and its layout
// l: when the body holds extra exactly, ExtraInBody, or the call-only column of a
// sidechain's extra; else extra itself.
func StoredExtra(extra, body []byte, l Layout) []byte {
	if len(extra) <= 2 {
		return extra // "{}" costs nothing
	}
	fields, err := extraFields(body, l)
	if err != nil || !bytes.Equal(fields, extra[1:len(extra)-1]) {
		return extra
	}
	if !bytes.Contains(extra, []byte(`"parentToolUseId"`)) {
		return ExtraInBody
	}
	var call struct {
		ParentToolUseID json.RawMessage `json:"parentToolUseId"`
	}
	if json.Unmarshal(extra, &call) != nil {
		return extra
	}
	column := append(append(bytes.Clone(callField), call.ParentToolUseID...), '}')
	if !isCallOnly(column) { // a call that is not a plain string: readers would take the column whole
		return extra
	}
	return column
}

// isCallOnly reports whether an extra column holds the one field of a sidechain's call,
// ASCII, as StoredExtra writes it. When the message has a body, its extra fields are cut
// from the body: a column stored whole before this (a sidechain record whose only extra
// field was its call) is what the body holds too.
func isCallOnly(column []byte) bool {
	if len(column) < len(callField)+3 || !bytes.HasPrefix(column, callField) || !jsonenc.IsASCII(column) {
		return false
	}
	value := column[len(callField) : len(column)-1]
	return column[len(column)-1] == '}' && value[0] == '"' &&
		bytes.IndexByte(value[1:], '"') == len(value)-2 // one string, with no escaped quote in it
}

// ExtraOf returns a message's extra fields as a JSON object: the extra column, or, when
// it is ExtraInBody (which SQLite's driver reads back as nil: the column is never NULL)
// or a call-only column, the fields cut out of body, whose layout is l. A body they cannot
// be cut from is a damaged store.
func ExtraOf(column, body []byte, l Layout, seq int64) ([]byte, error) {
	if body == nil || (len(column) > 0 && !isCallOnly(column)) {
		return column, nil
	}
	fields, err := extraFields(body, l)
	if err != nil {
		return nil, fmt.Errorf("%w: message %d: its extra fields cannot be read from its body: %v", session.ErrSessionCorrupt, seq, err)
	}
	extra := make([]byte, 0, len(fields)+2)
	extra = append(append(append(extra, '{'), fields...), '}')
	return extra, nil
}

// extraFields returns the extra fields of body's envelope without the braces of their
// object ("" when it has none). Strings in a body are JSON-escaped, so `,"isSidechain":`
// outside a string first appears as the fixed field; the end is the message object's
// place, from the layout, since an extra field may hold a "message" key of its own.
func extraFields(body []byte, l Layout) ([]byte, error) {
	end := l.MessageAt - len(messageField)
	if end < 0 || !bytes.Equal(body[end:l.MessageAt], messageField) {
		return nil, ErrBadLayout
	}
	head := body[:end]
	i := bytes.Index(head, sidechainField)
	if i < 0 {
		return nil, ErrBadLayout
	}
	rest := head[i+len(sidechainField):]
	switch {
	case bytes.HasPrefix(rest, []byte("true")):
		rest = rest[len("true"):]
	case bytes.HasPrefix(rest, []byte("false")):
		rest = rest[len("false"):]
	default:
		return nil, ErrBadLayout
	}
	rest = bytes.TrimPrefix(rest, continuesField)
	if len(rest) == 0 {
		return rest, nil
	}
	if rest[0] != ',' {
		return nil, ErrBadLayout
	}
	return rest[1:], nil
}
