package catalog

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestReadMetaTakesAStringModelAndTheHourPartOfTheWrite(t *testing.T) {
	cases := []struct {
		model     string
		hour      int64
		wantModel string
		wantHour  int64
	}{
		{`"claude-x"`, 200, "claude-x", 200},
		{`7`, 999, "", 300}, // a model that is not a string is none; the split is at most the write
		{``, 0, "", 0},
		{`null`, -4, "", 0},
	}
	for _, c := range cases {
		r := UsageRecord{Model: "left over", Usage: session.Usage{CacheCreationInputTokens: 300, CacheCreation1hInputTokens: 5}}
		r.ReadMeta([]byte(c.model), c.hour)
		if r.Model != c.wantModel || r.CacheCreation1hInputTokens != c.wantHour {
			t.Errorf("ReadMeta(%s, %d) = %q, %d; want %q, %d", c.model, c.hour, r.Model, r.CacheCreation1hInputTokens, c.wantModel, c.wantHour)
		}
	}
}
