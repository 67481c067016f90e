package jsonenc

import "slices"

// AppendJSONString16 appends the UTF-16 code units s as a JSON string in ASCII: the escapes
// JSON.stringify writes, and \uXXXX for every code unit over 0x7E, a lone surrogate
// included (kept as it is, where UTF-8 could not hold it).
func AppendJSONString16(dst []byte, s []uint16) []byte {
	dst = slices.Grow(dst, len(s)+len(s)/8+2)
	dst = append(dst, '"')
	i := 0
	for ; i+4 <= len(s); i += 4 {
		a, b, c, d := s[i], s[i+1], s[i+2], s[i+3]
		if a|b|c|d < 0x80 && plain[a] && plain[b] && plain[c] && plain[d] {
			dst = append(dst, byte(a), byte(b), byte(c), byte(d))
			continue
		}
		for _, u := range s[i : i+4] {
			dst = appendUnit16(dst, u)
		}
	}
	for _, u := range s[i:] {
		dst = appendUnit16(dst, u)
	}
	return append(dst, '"')
}

// plain marks the ASCII characters a JSON string holds as they are.
var plain = func() (t [0x80]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func appendUnit16(dst []byte, u uint16) []byte {
	if u < 0x80 && plain[u] {
		return append(dst, byte(u))
	}
	return appendEscaped16(dst, u)
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
