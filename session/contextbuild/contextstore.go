package contextbuild

import (
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// CacheStore is the context cache a store keeps beside the messages: cumulative token
// counts, so that any range is counted by subtraction; turn and step positions found
// through indexes; cached summaries; compaction boundaries; and the session state folded
// so far. Every read is indexed, so its cost does not grow with the length of the session.
type CacheStore interface {
	// ContextIndex returns the totals and compaction state of a session.
	ContextIndex(sessionID string) (ContextIndex, error)
	// CumAt returns the cumulative counts through message seq; zero for seq < 0.
	CumAt(sessionID string, seq int64) (Cum, error)
	// FirstSeqReaching returns the first message whose cumulative count reaches tokens.
	FirstSeqReaching(sessionID string, tokens int64) (seq int64, found bool, err error)
	// TurnStart returns the first seq of turn number turn.
	TurnStart(sessionID string, turn int64) (seq int64, found bool, err error)
	// CutAtOrAfter returns the first seq ≥ seq where a context may start without splitting
	// a tool call from its result: a prompt, or (steps too) an assistant message.
	CutAtOrAfter(sessionID string, seq int64, steps bool) (cut int64, found bool, err error)
	// CutAtOrBefore returns the last such seq ≤ seq.
	CutAtOrBefore(sessionID string, seq int64, steps bool) (cut int64, found bool, err error)
	// Summaries returns a session's cached summaries that end at or after minTo, by end.
	Summaries(sessionID string, minTo int64) ([]Summary, error)
	// ContextState returns the session state folded through a message, if any.
	ContextState(sessionID string) (state []byte, through int64, err error)
	// Counts calls fn with the counts of each counted record, in seq order.
	Counts(sessionID string, fn func(seq int64, c Cum)) error
	// Compactions returns a session's compaction boundaries, oldest first.
	Compactions(sessionID string) ([]Compaction, error)
}

// ContextIndex is what the builder learns of a session before reading any message.
type ContextIndex struct {
	LastSeq  int64 // the last counted message; -1 when none is
	LastTurn int64 // its turn
	Total    Cum   // cumulative counts through LastSeq
	Boundary *Compaction
}

// Cum is a cumulative count: of messages as stored, and as an old turn is pruned.
type Cum struct{ Tokens, Pruned int64 }

// Summary is a cached summary of the messages FromSeq..ToSeq of a session.
type Summary struct {
	FromSeq      int64     `json:"fromSeq"`
	ToSeq        int64     `json:"toSeq"`
	MessageCount int64     `json:"messageCount"`
	TokensBefore int64     `json:"tokensBefore"` // raw units of the messages it stands for
	TokensAfter  int64     `json:"tokensAfter"`  // raw units of the summary
	Model        string    `json:"model"`
	Text         string    `json:"text"`
	CreatedAt    time.Time `json:"createdAt"`
}

// Compaction is a boundary: messages before Seq are represented by the summary that ends
// at Seq-1. Nothing before it is deleted; a later compaction supersedes it.
type Compaction struct {
	Seq          int64     `json:"boundarySeq"`
	Trigger      string    `json:"trigger"`
	TokensBefore int64     `json:"tokensBefore"`
	TokensAfter  int64     `json:"tokensAfter"`
	CreatedAt    time.Time `json:"createdAt"`
}

// PutSummary caches a summary; one already cached for the same range is kept.
type PutSummary struct {
	session.ContextOpBase
	SessionID string
	Summary   Summary
}

// PutCompaction records a compaction boundary.
type PutCompaction struct {
	session.ContextOpBase
	SessionID  string
	Compaction Compaction
}

// PutContextState records the session state folded through message Through.
type PutContextState struct {
	session.ContextOpBase
	SessionID string
	State     []byte
	Through   int64
}

// SessionOf returns the session the op belongs to.
func (o PutSummary) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o PutCompaction) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o PutContextState) SessionOf() string { return o.SessionID }

// MarshalJSON writes the time as envelopes do: ISO 8601 UTC with milliseconds.
func (c Compaction) MarshalJSON() ([]byte, error) {
	type plain Compaction
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"createdAt"`
	}{plain(c), jsonenc.FormatTime(c.CreatedAt)})
}

// MarshalJSON writes the time as envelopes do: ISO 8601 UTC with milliseconds.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"createdAt"`
	}{plain(s), jsonenc.FormatTime(s.CreatedAt)})
}
