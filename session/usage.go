package session

import "github.com/goccy/go-json"

// Usage is the token usage a provider reports for one request, in the Anthropic field
// names that messages keep.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}

// ParseUsage reads the token counts out of a usage object; fields it does not know are
// ignored here and kept verbatim in the message.
func ParseUsage(raw []byte) (Usage, error) {
	var u Usage
	if len(raw) == 0 {
		return u, nil
	}
	err := json.Unmarshal(raw, &u)
	return u, err
}

// TokenTracker is the session's token accounting: sums over every request, and the
// context size now (the last request's input plus cache tokens, which is what the
// window holds). It is restored from stored usage, never reset on resume.
type TokenTracker struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
	ContextTokens            int64 `json:"contextTokens"`
}

// Add accounts for one request's usage.
func (t *TokenTracker) Add(u Usage) {
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CacheReadInputTokens += u.CacheReadInputTokens
	t.CacheCreationInputTokens += u.CacheCreationInputTokens
	t.ContextTokens = u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
}
