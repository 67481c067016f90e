package session

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// LargeStrings are long string values of user content that cross from JavaScript apart from
// its JSON, as UTF-16 code units: JSON.stringify and the UTF-8 crossing of a large tool
// output cost the JS thread several times more than copying its code units. The content's
// JSON holds the placeholder "\u0000<i>" in place of string i; JavaScript makes sure no
// other string or key of the content begins with U+0000.
type LargeStrings [][]uint16

// placeholder is how a large string's placeholder begins in JSON.
var placeholder = []byte(`"\u0000`)

// splice returns block with every placeholder replaced by its string, encoded as ASCII
// JSON (see AppendASCII); used counts the strings spliced.
func (ls LargeStrings) splice(block []byte, used *int) ([]byte, error) {
	at := placeholderIndex(block)
	if at < 0 {
		return block, nil
	}
	out := make([]byte, 0, len(block)+ls.size())
	for at >= 0 {
		end := bytes.IndexByte(block[at+len(placeholder):], '"')
		if end < 0 {
			return nil, fmt.Errorf("%w: a large string's placeholder is not closed", ErrInvalidMessage)
		}
		digits := block[at+len(placeholder) : at+len(placeholder)+end]
		i, err := strconv.Atoi(string(digits))
		if err != nil || i < 0 || i >= len(ls) {
			return nil, fmt.Errorf("%w: a large string's placeholder names no string", ErrInvalidMessage)
		}
		out = AppendJSONString16(append(out, block[:at]...), ls[i])
		*used++
		block = block[at+len(placeholder)+end+1:]
		at = placeholderIndex(block)
	}
	return append(out, block...), nil
}

// placeholderIndex returns where the first placeholder of block begins, or -1. The bytes
// "\u0000 also occur inside a string, after an escaped quote (JSON.stringify writes
// 'a"\0' as "a\"\u0000"); a placeholder's quote opens a string, so it follows an even
// run of backslashes (in valid JSON, none: a closing quote cannot come before \u0000).
func placeholderIndex(block []byte) int {
	from := 0
	for {
		at := bytes.Index(block[from:], placeholder)
		if at < 0 {
			return -1
		}
		at += from
		slashes := 0
		for i := at - 1; i >= 0 && block[i] == '\\'; i-- {
			slashes++
		}
		if slashes%2 == 0 {
			return at
		}
		from = at + 1
	}
}

func (ls LargeStrings) size() int {
	n := 0
	for _, s := range ls {
		n += len(s) + len(s)/8 + 2
	}
	return n
}

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
