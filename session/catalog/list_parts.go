package catalog

import "bytes"

// SplitList cuts a listing as AppendList encodes it (a JSON array of session objects) into
// JSON arrays of at most max bytes each, but for a session larger alone, in order, reusing
// b's memory (it grows by a byte a cut). A listing no larger than max is returned whole.
//
// A session object begins where `,{"` is followed by a letter: a `{` inside a string is
// never followed by an unescaped quote but the string's own closing one, and a closing
// quote is followed by `,`, `}`, `]` or `:`, never a letter; an object nested in a
// session's object follows a `:` (AppendInfo writes no arrays of objects).
func SplitList(b []byte, max int) [][]byte {
	var cuts []int // the comma before each part but the first
	for start := 0; len(b)-start > max; {
		c := lastObjectStart(b, start, start+max)
		if c < 0 { // the session at start is larger than max alone
			if c = nextObjectStart(b, start+1); c < 0 {
				break
			}
		}
		cuts = append(cuts, c)
		start = c
	}
	if len(cuts) == 0 {
		return [][]byte{b}
	}
	// Each comma at a cut closes the part before it (']') and a '[' is inserted after it:
	// segment j, after cut j, moves j bytes right. From the last, so nothing is overwritten
	// before it moved.
	n := len(b)
	b = append(b, make([]byte, len(cuts))...)
	for j := len(cuts); j >= 1; j-- {
		from, to := cuts[j-1]+1, n
		if j < len(cuts) {
			to = cuts[j]
		}
		copy(b[from+j:], b[from:to])
		b[cuts[j-1]+j-1] = ']'
		b[cuts[j-1]+j] = '['
	}
	parts := make([][]byte, 0, len(cuts)+1)
	start := 0
	for j, c := range cuts {
		parts = append(parts, b[start:c+j+1])
		start = c + j + 1
	}
	return append(parts, b[start:])
}

// objectStart is what precedes a session object's first key.
var objectStart = []byte(`,{"`)

// lastObjectStart returns the index of the comma before the last session object whose
// `,{"` lies in b[after+1:limit], or -1.
func lastObjectStart(b []byte, after, limit int) int {
	for end := limit; end > after; {
		i := bytes.LastIndex(b[after+1:end], objectStart)
		if i < 0 {
			return -1
		}
		i += after + 1
		if i+3 < len(b) && isLetter(b[i+3]) {
			return i
		}
		end = i + 2 // look before this one (keeping its comma out)
	}
	return -1
}

// nextObjectStart returns the index of the comma before the first session object that
// begins at or after from, or -1.
func nextObjectStart(b []byte, from int) int {
	for from < len(b) {
		i := bytes.Index(b[from:], objectStart)
		if i < 0 {
			return -1
		}
		i += from
		if i+3 < len(b) && isLetter(b[i+3]) {
			return i
		}
		from = i + 1
	}
	return -1
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
