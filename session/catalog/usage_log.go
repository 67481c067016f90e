package catalog

import (
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// UsageLog reads what stored messages report of their cost: their type, the model they
// name and their token usage. Session details and usage stats are sums over it, computed
// in this package (usage_sums.go), so a backend only hands out the records.
type UsageLog interface {
	// ScanUsage calls fn for each message filter selects, in no particular order. The
	// record is valid only during the call.
	ScanUsage(filter UsageFilter, fn func(*UsageRecord) error) error
}

// UsageFilter selects the messages ScanUsage reads. Zero values mean no filter.
type UsageFilter struct {
	SessionID   string // the messages of this session only
	ProjectPath string // the messages of the sessions of this project only
	// Since and Until keep the messages created at Since or later and before Until.
	Since, Until time.Time
	// WithUsage lets a store skip the messages that report no usage, which the sums skip
	// anyway: stats read only the others.
	WithUsage bool
}

// UsageRecord is one stored message as usage sums read it.
type UsageRecord struct {
	Type         string
	Model        string // the model the message's meta names, "" when it names none
	SessionModel string // the model of the message's session
	CreatedAt    time.Time
	session.Usage
}

// ReadMeta sets r's model and the 1-hour part of its cache write from what its message's
// meta holds (a backend reads them together for the messages that wrote to the cache, the
// split having no column): the model as a raw JSON value, taken when it is a string, and
// the tokens written for an hour, held to the whole write.
func (r *UsageRecord) ReadMeta(model []byte, hour int64) {
	r.Model = ""
	if len(model) > 0 && model[0] == '"' {
		_ = json.Unmarshal(model, &r.Model)
	}
	r.CacheCreation1hInputTokens = min(max(0, hour), r.CacheCreationInputTokens)
}

// reported reports whether a message reports any usage.
func reported(u session.Usage) bool {
	return u.InputTokens+u.OutputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens > 0
}
