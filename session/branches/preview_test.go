package branches

import (
	"strings"
	"testing"
)

func TestPreviewShowsTheFirstTextElseTheFirstBlock(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, c := range []struct {
		name   string
		blocks []string
		want   string
	}{
		{"text on one line", []string{`{"type":"text","text":"fix\n  the   bug"}`}, "fix the bug"},
		{"long text cut", []string{`{"type":"text","text":"` + long + `"}`}, strings.TrimSpace(long)[:79] + "…"},
		{"text after a tool call wins", []string{`{"type":"tool_use","name":"Bash"}`, `{"type":"text","text":"done"}`}, "done"},
		{"blank text is a block like any", []string{`{"type":"text","text":"  "}`, `{"type":"tool_use","name":"Read"}`}, "[text]"},
		{"tool result string", []string{`{"type":"tool_result","content":"ok\nall good"}`}, "[tool_result] ok all good"},
		{"tool result blocks", []string{`{"type":"tool_result","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}`}, "[tool_result] a b"},
		{"other block", []string{`{"type":"image","source":{}}`}, "[image]"},
		{"not JSON", []string{`nope`}, ""},
	} {
		blocks := make([][]byte, len(c.blocks))
		for i, b := range c.blocks {
			blocks[i] = []byte(b)
		}
		if got := preview(blocks); got != c.want {
			t.Errorf("%s: preview = %q, want %q", c.name, got, c.want)
		}
	}
}
