package jsonenc

import (
	"testing"
	"unicode/utf16"
)

// TestSpliceReplacesPlaceholders: each placeholder becomes its string as ASCII JSON, the
// bytes "\u0000 after an escaped quote are left alone, and a placeholder that is not
// closed or names no string is an error.
func TestSpliceReplacesPlaceholders(t *testing.T) {
	ls := LargeStrings{utf16.Encode([]rune("big → out")), utf16.Encode([]rune(`q"`))}
	used := 0
	got, err := ls.Splice([]byte(`{"a":"\u00001","b":"x\"\u0000","c":"\u00000"}`), &used)
	if err != nil || used != 2 {
		t.Fatalf("Splice: %v, used %d", err, used)
	}
	if want := `{"a":"q\"","b":"x\"\u0000","c":"big \u2192 out"}`; string(got) != want {
		t.Errorf("Splice = %s, want %s", got, want)
	}
	for _, bad := range []string{`{"a":"\u00001`, `{"a":"\u00002"}`, `{"a":"\u0000x"}`} {
		if _, err := ls.Splice([]byte(bad), &used); err == nil {
			t.Errorf("Splice(%s) gives no error", bad)
		}
	}
}
