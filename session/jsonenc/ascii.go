package jsonenc

import (
	"encoding/binary"
	"unicode/utf8"
)

// AppendASCII appends the JSON text src to dst with every non-ASCII character written as a
// \uXXXX escape (a surrogate pair above U+FFFF), so the result is pure ASCII and means the
// same JSON. Non-ASCII bytes occur in JSON only inside strings, where such an escape is
// always allowed. A byte sequence that is not UTF-8 becomes U+FFFD, as a JSON decoder
// would read it.
//
// Why: V8 can take ASCII as a one-byte string with a plain copy, and JSON.parse of it turns
// into two-byte strings only the values that hold such characters, where UTF-8 would make
// V8 decode the whole text into one two-byte string first.
func AppendASCII(dst, src []byte) []byte {
	for len(src) > 0 {
		n := asciiPrefix(src)
		dst = append(dst, src[:n]...)
		src = src[n:]
		for len(src) > 0 && src[0] >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(src)
			dst = appendEscapedRune(dst, r)
			src = src[size:]
		}
	}
	return dst
}

// asciiPrefix returns how many leading bytes of b are ASCII, eight at a time.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b) && b[i] < utf8.RuneSelf; i++ {
	}
	return i
}

const hexDigits = "0123456789abcdef"

func appendEscapedRune(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		dst = appendEscapedUnit(dst, 0xD800+(r>>10)&0x3FF)
		return appendEscapedUnit(dst, 0xDC00+r&0x3FF)
	}
	return appendEscapedUnit(dst, r)
}

func appendEscapedUnit(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12&0xF], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
}

// IsASCII reports whether b holds only ASCII bytes.
func IsASCII(b []byte) bool { return asciiPrefix(b) == len(b) }

// AppendJSONStringASCII appends s as a JSON string of ASCII only: quotes, backslashes and
// control characters escaped as JSON requires, every non-ASCII character as \uXXXX, and
// bytes that are not UTF-8 as U+FFFD.
func AppendJSONStringASCII(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		if n := plainPrefix(s[i:]); n > 0 {
			buf = append(buf, s[i:i+n]...)
			i += n
			if i == len(s) {
				break
			}
		}
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			buf = appendEscapedRune(buf, r)
			i += size
			continue
		case c == '"' || c == '\\' || c < 0x20:
			buf = appendEscaped16(buf, uint16(c)) // the escapes JSON.stringify writes
		default:
			buf = append(buf, c)
		}
		i++
	}
	return append(buf, '"')
}

// plainPrefix returns how many leading bytes of s a JSON string holds as they are (ASCII
// but for quotes, backslashes and control characters), looking at eight at a time.
func plainPrefix(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		special := (x - ones*0x20) | (quote-ones) & ^quote | (backslash-ones) & ^backslash
		if (special|x)&highs != 0 {
			break
		}
	}
	for ; i < len(s) && s[i] >= 0x20 && s[i] < utf8.RuneSelf && s[i] != '"' && s[i] != '\\'; i++ {
	}
	return i
}
