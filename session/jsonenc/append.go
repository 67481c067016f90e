package jsonenc

import "github.com/goccy/go-json"

// AppendObjectFields appends the members of the JSON object obj, each preceded by a comma,
// so they join the object being written: how a record's JSON is extended with the fields
// of another. obj is compact JSON written by sessionkeep.
func AppendObjectFields(buf, obj []byte) []byte {
	if len(obj) <= 2 { // empty, or "{}"
		return buf
	}
	buf = append(buf, ',')
	return append(buf, obj[1:len(obj)-1]...)
}

// AppendString appends s as a JSON string, as json.Marshal writes it. A string with nothing
// to escape (uuids, timestamps, types: most of a message's envelope) is copied between
// quotes; Marshal's reflection cost more than the copy, 8 ms of an import of the real
// transcripts.
func AppendString(buf []byte, s string) []byte {
	if !needsEscape(s) {
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	b, _ := json.Marshal(s) // a string always encodes
	return append(buf, b...)
}

// needsEscape reports whether json.Marshal writes s other than between quotes: a control
// character, a quote or backslash, the HTML characters it escapes, or anything not ASCII
// (invalid UTF-8, U+2028 and U+2029 among it).
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return true
		}
	}
	return false
}
