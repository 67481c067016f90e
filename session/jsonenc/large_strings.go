package jsonenc

import (
	"bytes"
	"errors"
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

// Splice returns block with every placeholder replaced by its string, encoded as ASCII
// JSON (see AppendASCII); used counts the strings spliced.
func (ls LargeStrings) Splice(block []byte, used *int) ([]byte, error) {
	at := placeholderIndex(block)
	if at < 0 {
		return block, nil
	}
	out := make([]byte, 0, len(block)+ls.size())
	for at >= 0 {
		end := bytes.IndexByte(block[at+len(placeholder):], '"')
		if end < 0 {
			return nil, errors.New("a large string's placeholder is not closed")
		}
		digits := block[at+len(placeholder) : at+len(placeholder)+end]
		i, err := strconv.Atoi(string(digits))
		if err != nil || i < 0 || i >= len(ls) {
			return nil, errors.New("a large string's placeholder names no string")
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
