package jsonenc

import (
	"encoding/json"
	"testing"
	"unicode/utf16"
)

func TestAppendJSONString16MeansTheSameString(t *testing.T) {
	for _, s := range []string{"", "plain", "quote \" and \\ back", "line\nfeed\ttab\r\b\f\x01", "arrow → check ✓ done", "emoji 😀 x", "abc\"", strings64()} {
		got := AppendJSONString16(nil, utf16.Encode([]rune(s)))
		if !IsASCII(got) {
			t.Fatalf("%q: not ASCII: %s", s, got)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != s {
			t.Fatalf("%q: %s reads back as %q (%v)", s, got, back, err)
		}
	}
	lone := AppendJSONString16(nil, []uint16{'a', 0xD800, 'b'})
	if string(lone) != `"a\ud800b"` {
		t.Fatalf("a lone surrogate is kept as an escape: %s", lone)
	}
}

func strings64() string {
	b := make([]rune, 0, 300)
	for i := 0; i < 300; i++ {
		b = append(b, rune(0x20+i%200))
	}
	return string(b)
}
