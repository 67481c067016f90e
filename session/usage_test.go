package session

import "testing"

func TestParseUsageReadsTheCacheWriteKeptAnHour(t *testing.T) {
	cases := []struct {
		raw  string
		want Usage
	}{
		// Anthropic's usage (Messages API, Claude Code transcripts)
		{`{"input_tokens":3,"cache_creation_input_tokens":12118,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":12018},"output_tokens":8}`,
			Usage{InputTokens: 3, OutputTokens: 8, CacheCreationInputTokens: 12118, CacheCreation1hInputTokens: 12018}},
		// an adapter's usage keeping the provider's report under raw
		{`{"input_tokens":3,"cache_creation_input_tokens":50,"raw":{"cache_creation":{"ephemeral_1h_input_tokens":50}}}`,
			Usage{InputTokens: 3, CacheCreationInputTokens: 50, CacheCreation1hInputTokens: 50}},
		// the split alone gives the total
		{`{"cache_creation":{"ephemeral_5m_input_tokens":7,"ephemeral_1h_input_tokens":5}}`,
			Usage{CacheCreationInputTokens: 12, CacheCreation1hInputTokens: 5}},
		// a split larger than the total, or negative, is held to it
		{`{"cache_creation_input_tokens":10,"cache_creation":{"ephemeral_1h_input_tokens":99}}`,
			Usage{CacheCreationInputTokens: 10, CacheCreation1hInputTokens: 10}},
		{`{"cache_creation_input_tokens":10,"cache_creation":{"ephemeral_1h_input_tokens":-4}}`,
			Usage{CacheCreationInputTokens: 10}},
		{`{"input_tokens":1,"cache_creation_input_tokens":10}`, Usage{InputTokens: 1, CacheCreationInputTokens: 10}},
		// a split of another shape is ignored, as any field sessionkeep does not know
		{`{"input_tokens":1,"cache_creation":"5m","raw":[1]}`, Usage{InputTokens: 1}},
		{`{"input_tokens":1,"cache_creation":{"ephemeral_1h_input_tokens":"many"}}`, Usage{InputTokens: 1}},
	}
	for _, c := range cases {
		got, err := ParseUsage([]byte(c.raw))
		if err != nil || got != c.want {
			t.Errorf("ParseUsage(%s) = %+v, %v; want %+v", c.raw, got, err, c.want)
		}
	}
}
