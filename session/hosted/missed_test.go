package hosted

import "testing"

func TestCutUTF16CountsAsJavaScriptDoes(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 3, "he…"},
		{"a🚀b", 3, "a…"}, // the rocket is two code units: it does not fit beside the ellipsis
		{"a🚀b", 4, "a🚀…"},
		{"abc", 1, "…"},
	} {
		if got := cutUTF16(c.s, c.max); got != c.want || utf16Len(got) > c.max {
			t.Errorf("cutUTF16(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}
