package session

import (
	"time"

	"github.com/goccy/go-json"
)

// Store keeps sessions. It is small on purpose, so that more than one implementation can
// exist (SQLite now; PostgreSQL for hosts that outgrow one machine).
//
// Apply must not wait on disk: it queues Ops, which the Store applies in order and makes
// durable in the background within a bounded delay. Reads see every Op applied before them
// once Sync has returned.
type Store interface {
	// Apply queues ops for writing, in order.
	Apply(ops ...Op)
	// Sync waits until every Op queued so far is committed and visible to reads.
	Sync() error
	// Flush waits until every Op queued so far is durable on disk.
	Flush() error
	// LoadSession returns what a Session needs to continue id; ErrSessionNotFound if none.
	LoadSession(id string) (SessionState, error)
	// ListSessions returns sessions newest first.
	ListSessions(filter ListFilter) ([]SessionInfo, error)
	// ScanMessages calls fn for each message of a session, in order. The message and its
	// slices are valid only during the call.
	ScanMessages(sessionID string, fn func(*StoredMessage) error) error
	// Turns returns the turns of a session, in order.
	Turns(sessionID string) ([]Turn, error)
	// HasToolUse reports whether a session holds a tool_use block with the given id.
	HasToolUse(sessionID, toolUseID string) (bool, error)
	// Close flushes and closes the store.
	Close() error
	// ContextStore: token counts, summaries and compaction boundaries (contextstore.go).
	ContextStore
}

// SessionInfo is the listing of a session.
type SessionInfo struct {
	ID            string    `json:"id"`
	ProjectPath   string    `json:"projectPath"`
	Title         string    `json:"title"`
	Provider      string    `json:"provider,omitempty"`
	Model         string    `json:"model,omitempty"`
	ContextWindow int64     `json:"contextWindow,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	MessageCount  int64     `json:"messageCount"`
	Status        string    `json:"status"`
}

// MarshalJSON writes the times as envelopes do: ISO 8601 UTC with milliseconds.
func (i SessionInfo) MarshalJSON() ([]byte, error) {
	type plain SessionInfo
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"createdAt"`
		UpdatedAt string `json:"updatedAt"`
	}{plain(i), FormatTime(i.CreatedAt), FormatTime(i.UpdatedAt)})
}

// Session statuses.
const (
	StatusActive      = "active"
	StatusInterrupted = "interrupted"
)

// SessionState is what a Session continues from when it is opened.
type SessionState struct {
	Info     SessionInfo
	Tracker  TokenTracker
	NextSeq  int64  // the seq the next message gets
	LastUUID string // the uuid of the last message, the next one's parent
	LastTurn int64
}

// ListFilter narrows ListSessions. Zero values mean no filter; Limit 0 means all.
type ListFilter struct {
	ProjectPath string `json:"projectPath"`
	Limit       int    `json:"limit"`
}
