package blocks

import (
	"strings"
	"testing"
)

func TestABigStringToolResultIsCheckedAsASmallOneIs(t *testing.T) {
	big := strings.Repeat("line of output\n", bigJSON/15+1)
	for _, c := range []struct {
		name, content string
		valid         bool
	}{
		{"small", `"ok"`, true},
		{"big", `"` + strings.ReplaceAll(big, "\n", `\n`) + `"`, true},
		{"big, a raw newline inside", `"` + big + `"`, false},
		{"big, unterminated", `"` + strings.ReplaceAll(big, "\n", `\n`), false},
		{"big, two values", `"` + strings.ReplaceAll(big, "\n", `\n`) + `" "x"`, false},
	} {
		if len(c.content) >= bigJSON != (c.name != "small") {
			t.Fatalf("%s: %d bytes is on the wrong side of bigJSON", c.name, len(c.content))
		}
		if err := CheckToolResultContent([]byte(c.content)); (err == nil) != c.valid {
			t.Errorf("%s: CheckToolResultContent = %v, want valid %v", c.name, err, c.valid)
		}
	}
}
