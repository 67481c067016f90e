package codex

import (
	"bytes"
	"slices"
)

// member is one member of a JSON object as its text holds it: the key's bytes between its
// quotes and the value's bytes.
type member struct {
	key, value []byte
}

// plainMembers returns the members of the JSON object obj sorted by key, without decoding
// it. It declines (false) an object it cannot copy as the encoder would write its map: a
// key that needs decoding or whose bytes the encoder may write otherwise when it encodes
// the key as a string (anything but printable ASCII other than " and \; < > & it escapes
// in both), a key given twice (the decoder keeps the last value), or text that is not an
// object. A value is taken as it stands: whoever writes it compacts and checks it.
func plainMembers(obj []byte) ([]member, bool) {
	i := skipSpace(obj, 0)
	if i == len(obj) || obj[i] != '{' {
		return nil, false
	}
	var members []member
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return members, skipSpace(obj, i+1) == len(obj)
	}
	for {
		if i == len(obj) || obj[i] != '"' {
			return nil, false
		}
		end := i + 1
		for end < len(obj) && plainKeyByte(obj[end]) {
			end++
		}
		if end == len(obj) || obj[end] != '"' {
			return nil, false
		}
		key := obj[i+1 : end]
		i = skipSpace(obj, end+1)
		if i == len(obj) || obj[i] != ':' {
			return nil, false
		}
		start := skipSpace(obj, i+1)
		stop, ok := skipValue(obj, start)
		if !ok {
			return nil, false
		}
		members = append(members, member{key, obj[start:stop]})
		i = skipSpace(obj, stop)
		if i == len(obj) {
			return nil, false
		}
		if obj[i] == '}' {
			if skipSpace(obj, i+1) != len(obj) {
				return nil, false
			}
			break
		}
		if obj[i] != ',' {
			return nil, false
		}
		i = skipSpace(obj, i+1)
	}
	slices.SortFunc(members, func(a, b member) int { return bytes.Compare(a.key, b.key) })
	for k := 1; k < len(members); k++ {
		if bytes.Equal(members[k-1].key, members[k].key) {
			return nil, false
		}
	}
	return members, true
}

// plainKeyByte is whether a key's byte b is written as it stands, or escaped the same way
// whether the encoder writes it as a string or compacts it.
func plainKeyByte(b byte) bool {
	return b >= 0x20 && b < 0x7f && b != '"' && b != '\\'
}

// skipSpace returns the index of the first byte of text from i on that is not JSON white space.
func skipSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index after the JSON value that starts at text[i]: the first
// delimiter (',', a closing bracket or white space) outside its strings and brackets. It
// only finds the value's end, it does not check the value.
func skipValue(text []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(text); i++ {
		switch text[i] {
		case '"':
			end, ok := skipString(text, i)
			if !ok {
				return 0, false
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i, true
			}
			depth--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, true
			}
		}
	}
	return i, false
}

// skipString returns the index after the JSON string that starts at text[i]: after the
// first quote that an odd run of backslashes does not escape.
func skipString(text []byte, i int) (int, bool) {
	for i++; ; {
		q := bytes.IndexByte(text[i:], '"')
		if q < 0 {
			return 0, false
		}
		i += q
		slashes := 0
		for slashes < q && text[i-1-slashes] == '\\' {
			slashes++
		}
		i++
		if slashes%2 == 0 {
			return i, true
		}
	}
}
