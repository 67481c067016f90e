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

// AppendString appends s as a JSON string.
func AppendString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always encodes
	return append(buf, b...)
}
