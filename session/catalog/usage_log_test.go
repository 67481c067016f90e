package catalog

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestReadMetaTakesAStringModelAndTheHourPartOfTheWrite(t *testing.T) {
	cases := []struct {
		model, usage string
		wantModel    string
		wantHour     int64
	}{
		{`"claude-x"`, `{"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_1h_input_tokens":200}}`, "claude-x", 200},
		{`7`, `{"cache_creation":{"ephemeral_1h_input_tokens":999}}`, "", 300}, // a model that is not a string is none; the split is at most the write
		{``, `"not usage"`, "", 0},
		{`null`, `{"cache_creation":{"ephemeral_1h_input_tokens":"x"}}`, "", 0},
	}
	for _, c := range cases {
		r := UsageRecord{Model: "left over", Usage: session.Usage{CacheCreationInputTokens: 300, CacheCreation1hInputTokens: 5}}
		r.ReadMeta([]byte(c.model), []byte(c.usage))
		if r.Model != c.wantModel || r.CacheCreation1hInputTokens != c.wantHour {
			t.Errorf("ReadMeta(%s, %s) = %q, %d; want %q, %d", c.model, c.usage, r.Model, r.CacheCreation1hInputTokens, c.wantModel, c.wantHour)
		}
	}
}
