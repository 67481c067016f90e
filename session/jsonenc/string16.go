package jsonenc

import "slices"

// AppendJSONString16 appends the UTF-16 code units s as a JSON string in ASCII: the escapes
// JSON.stringify writes, and \uXXXX for every code unit over 0x7E, a lone surrogate
// included (kept as it is, where UTF-8 could not hold it).
//
// Runs of plain ASCII are written by index into the room slices.Grow made, not appended a
// byte at a time: a tool output of tens of KB crosses here on the JS thread (W1).
func AppendJSONString16(dst []byte, s []uint16) []byte {
	dst = slices.Grow(dst, len(s)+len(s)/8+2)
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		n := len(dst)
		room := dst[n:cap(dst)]
		k := 0
		for ; k < len(room) && i < len(s); k, i = k+1, i+1 {
			u := s[i]
			if u-0x20 >= 0x7F-0x20 || u == '"' || u == '\\' { // not printable ASCII, or must be escaped
				break
			}
			room[k] = byte(u)
		}
		dst = dst[:n+k]
		switch {
		case i == len(s):
		case k == len(room):
			left := len(s) - i
			dst = slices.Grow(dst, left+left/8+2)
		default:
			dst = appendEscaped16(dst, s[i])
			i++
		}
	}
	return append(dst, '"')
}

func appendEscaped16(dst []byte, u uint16) []byte {
	switch u {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	return appendEscapedUnit(dst, rune(u))
}
