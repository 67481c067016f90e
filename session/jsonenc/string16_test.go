package jsonenc

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
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

// plain marks the ASCII characters a JSON string holds as they are.
var plain = func() (t [0x80]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString16Unit is AppendJSONString16 a code unit at a time, as it was written
// first: what the faster version must write byte for byte (stored bodies may not change).
func appendJSONString16Unit(dst []byte, s []uint16) []byte {
	dst = append(dst, '"')
	for _, u := range s {
		if u < 0x80 && plain[u] {
			dst = append(dst, byte(u))
		} else {
			dst = appendEscaped16(dst, u)
		}
	}
	return append(dst, '"')
}

// toolOutput16 is text like a Read tool's output (a numbered line, an arrow, code, quotes,
// a tab now and then), as UTF-16, about n units; words are ordinary ASCII but for one in
// `special` (an escape, a non-ASCII character, a surrogate pair).
func toolOutput16(n int, seed uint64, special int) []uint16 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]uint16, 0, n+80)
	for line := 1; len(out) < n; line++ {
		out = append(out, utf16.Encode([]rune(strconv.Itoa(line)+"→"))...)
		for w := r.IntN(12); w >= 0; w-- {
			word := []string{"func", "x", "return", "{", "}", "if err != nil", "strconv.Itoa(n)"}[r.IntN(7)]
			if r.IntN(special) == 0 {
				word = []string{"\"str\"", "\t", "\\", "✓", "😀", "\x01", "\x7f"}[r.IntN(7)]
			}
			out = append(out, utf16.Encode([]rune(word+" "))...)
		}
		out = append(out, '\n')
	}
	return out
}

func TestAppendJSONString16WritesWhatTheUnitLoopWrites(t *testing.T) {
	prefix := []byte(`{"a":`)
	for seed := range uint64(200) {
		s := toolOutput16(int(seed*37%3000), seed, 1+int(seed%4))
		if seed%3 == 0 {
			s = append(s, 0xD800, 'x', 0xDFFF) // lone surrogates, kept as escapes
		}
		// Destinations with no room, some room, and exactly the room of the first run.
		for _, dst := range [][]byte{nil, append([]byte(nil), prefix...), append(make([]byte, 0, len(prefix)+3), prefix...)} {
			want := appendJSONString16Unit(append([]byte(nil), dst...), s)
			if got := AppendJSONString16(dst, s); string(got) != string(want) {
				t.Fatalf("seed %d, cap %d: got %d bytes, want %d:\n%s\n%s", seed, cap(dst), len(got), len(want), got, want)
			}
		}
	}
}

func BenchmarkAppendJSONString16(b *testing.B) {
	s := toolOutput16(14_000, 1, 30)
	b.SetBytes(int64(2 * len(s)))
	b.Run("runs", func(b *testing.B) {
		for b.Loop() {
			AppendJSONString16(nil, s)
		}
	})
	b.Run("unit-loop", func(b *testing.B) {
		for b.Loop() {
			appendJSONString16Unit(nil, s)
		}
	})
}
