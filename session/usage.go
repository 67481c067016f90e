package session

import "github.com/goccy/go-json"

// Usage is the token usage a provider reports for one request, in the Anthropic field
// names that messages keep.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	// CacheCreation1hInputTokens is the part of CacheCreationInputTokens written to the
	// cache for an hour rather than the default 5 minutes (Anthropic's
	// cache_creation.ephemeral_1h_input_tokens), which is priced higher. It is not a column
	// of its own: it is read from the usage object the message's meta keeps.
	CacheCreation1hInputTokens int64 `json:"-"`
}

// usageObject is a usage object as providers and adapters report it: Anthropic's fields,
// and under raw (the adapters over SDKs that rename the counts) the provider's own report.
// The split is read apart, so that a field of another shape is ignored, as it was before
// sessionkeep read it.
type usageObject struct {
	Usage
	CacheCreation json.RawMessage `json:"cache_creation"`
	Raw           json.RawMessage `json:"raw"`
}

// ParseUsage reads the token counts out of a usage object, with the 1-hour part of the
// cache write from its cache_creation (or raw.cache_creation); fields it does not know, or
// whose shape it does not know, are ignored here and kept verbatim in the message.
func ParseUsage(raw []byte) (Usage, error) {
	var o usageObject
	if len(raw) == 0 {
		return o.Usage, nil
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return o.Usage, err
	}
	var split struct {
		Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
	}
	splitRaw := o.CacheCreation
	if len(splitRaw) == 0 && len(o.Raw) > 0 {
		var r struct {
			CacheCreation json.RawMessage `json:"cache_creation"`
		}
		if json.Unmarshal(o.Raw, &r) == nil {
			splitRaw = r.CacheCreation
		}
	}
	if len(splitRaw) > 0 && splitRaw[0] == '{' && json.Unmarshal(splitRaw, &split) == nil {
		if o.CacheCreationInputTokens == 0 {
			o.CacheCreationInputTokens = max(0, split.Ephemeral5m) + max(0, split.Ephemeral1h)
		}
		o.CacheCreation1hInputTokens = min(max(0, split.Ephemeral1h), o.CacheCreationInputTokens)
	}
	return o.Usage, nil
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
