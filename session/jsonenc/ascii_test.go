package jsonenc

import (
	"strings"
	"testing"

	"github.com/goccy/go-json"
)

// TestAppendJSONStringASCII: every string comes back the same through a JSON decoder, and
// the text is pure ASCII, whatever mix of plain runs, escapes and non-ASCII it holds.
func TestAppendJSONStringASCII(t *testing.T) {
	cases := []string{"", "plain ASCII text of some length", `"quoted" and \\back\\slashed`, "tab\tnew\nline\x00nul\x1f",
		"arrows → and ✓ and 😀 emoji", strings.Repeat("abcdefg\"", 9), "bad \xff utf-8", "12345678\x7f" + strings.Repeat("é", 9)}
	for _, s := range cases {
		out := AppendJSONStringASCII(nil, s)
		if !IsASCII(out) {
			t.Errorf("%q: not ASCII: %s", s, out)
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Errorf("%q: %s does not decode: %v", s, out, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if back != want {
			t.Errorf("%q came back as %q", want, back)
		}
	}
}

// TestAppendInfoFields: a listing of some fields holds exactly those; all fields decode to
// the same SessionInfo; times are written as FormatTime writes them.
