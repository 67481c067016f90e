package hosted_test

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/hosted"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestMissedContextIsOldestFirstAndKeepsTheNewest(t *testing.T) {
	s := sessiontest.NewEnv(t).Create(t)
	for _, text := range []string{"one", "two", "three"} {
		sessiontest.Prompt(t, s, text)
	}
	all, err := hosted.FormatMissedContext(s, 10000)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(all.Formatted, "\n")
	if all.Count != 3 || all.Omitted != 0 || len(lines) != 3 ||
		!strings.HasSuffix(lines[0], "user: one") || !strings.HasSuffix(lines[2], "user: three") {
		t.Fatalf("all missed = %+v", all)
	}
	newest, err := hosted.FormatMissedContext(s, len(lines[2])+len(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	if newest.Count != 1 || newest.Omitted != 2 || newest.Formatted != lines[2] {
		t.Errorf("room for one line and a half = %+v, want only %q", newest, lines[2])
	}
}
