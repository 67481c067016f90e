package jsonenc

import (
	"testing"

	"github.com/goccy/go-json"
)

// TestAppendStringWritesWhatMarshalWrites: the copy between quotes and Marshal agree on
// every byte alone, inside plain text, and on the strings an envelope holds.
func TestAppendStringWritesWhatMarshalWrites(t *testing.T) {
	inputs := []string{"", "0196d3a2-7b1c-7e5f-9a4b-2c3d4e5f6a7b", "2026-01-21T06:19:38.056Z", "tool_result",
		"a <b> & c", "quote \" and \\ backslash", "tab\tnew\nline", "zoë", "\u2028\u2029", "\xff\xfe bad utf-8", "del \x7f"}
	for c := 0; c < 256; c++ {
		inputs = append(inputs, string([]byte{byte(c)}), "plain "+string([]byte{byte(c)})+" text")
	}
	for _, s := range inputs {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendString(%q) = %s, want x%s", s, got, want)
		}
	}
}
