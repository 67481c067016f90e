package session

import "time"

// Op is one change a Session hands to its Store. Ops are applied in the order they are
// queued; each names the session it belongs to.
type Op interface{ op() }

// SessionOp is an Op on a session that exists: SessionOf names it.
type SessionOp interface {
	Op
	SessionOf() string
}

// CreateSession adds a new, empty session.
type CreateSession struct{ Info SessionInfo }

// BeginMessage adds a message. Blocks follow as PutBlock ops and EndMessage closes it; a
// message whose EndMessage never came is found with Status still "streaming".
type BeginMessage struct {
	SessionID string
	Header    MessageHeader
}

// MessageHeader is what is known of a message when it begins.
type MessageHeader struct {
	Seq        int64
	UUID       string
	ParentUUID string
	Type       string // user | assistant | tool_result
	Role       string // user | assistant
	Turn       int64
	CreatedAt  time.Time
	Provider   string
	RequestID  string
	// IsSidechain marks a subagent's message, left out of the main conversation.
	IsSidechain bool
	// Continues marks a record that continues the previous record's message (a Claude Code
	// assistant message written one block per line): the conversation joins them.
	Continues bool
	Meta      []byte // JSON object: the message fields beside role and content known so far
	Extra     []byte // JSON object: envelope fields beside the standard ones known so far
}

// PutBlock adds block Index of message Seq, or replaces an earlier Partial checkpoint of
// the same block.
type PutBlock struct {
	SessionID string
	Seq       int64
	Index     int
	JSON      []byte
	Partial   bool   // a checkpoint of a block still streaming
	ToolUseID string // for tool_use blocks, indexed so tool results can be matched
}

// AddRedactions adds to the count of secrets redacted in a session.
type AddRedactions struct {
	SessionID string
	Count     int
}

// SessionOf returns the session the op belongs to.
func (o AddRedactions) SessionOf() string { return o.SessionID }

// EndMessage closes message Seq with its final status, message fields and envelope extras.
type EndMessage struct {
	SessionID string
	Seq       int64
	Status    string
	Meta      []byte // JSON object: the message fields beside role and content
	Extra     []byte // JSON object: envelope fields beside the standard ones
	Usage     Usage  // the request's usage, zero when none was reported
	// Imported is set on a message an import writes (RecordWriter.Append), which is history
	// read less often than it is kept: a store may favour its size over its read speed.
	Imported bool
	// Prepared is what a Store may attach to an imported record's EndMessage when it
	// receives it: the record's stored form, made on the caller's goroutine rather than by
	// the store's writer. The session package neither sets nor reads it.
	Prepared any
}

// SetTracker records the session's token tracker.
type SetTracker struct {
	SessionID string
	Tracker   TokenTracker
}

// SetTitle records the title made from the session's first prompt, unless it has one.
type SetTitle struct {
	SessionID string
	Title     string
}

// SetUpdatedAt records when the session was last active, for a session written with
// records of the past (an import) rather than now.
type SetUpdatedAt struct {
	SessionID string
	Time      time.Time
}

func (CreateSession) op() {}
func (SetUpdatedAt) op()  {}
func (BeginMessage) op()  {}
func (PutBlock) op()      {}
func (EndMessage) op()    {}
func (SetTracker) op()    {}
func (SetTitle) op()      {}
func (AddRedactions) op() {}

// SessionOf returns the session the op belongs to.
func (o SetUpdatedAt) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o BeginMessage) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o PutBlock) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o EndMessage) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o SetTracker) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o SetTitle) SessionOf() string { return o.SessionID }

// Message statuses, kept in the envelope's "status".
const (
	MessageStreaming   = "streaming"   // still being written by a live process
	MessageComplete    = "complete"    // ended normally
	MessageInterrupted = "interrupted" // cut off: by a crash, a close, or a new prompt
	MessageError       = "error"       // the stream reported an error; what arrived is kept
)

// Envelope types.
const (
	TypeUser       = "user"
	TypeAssistant  = "assistant"
	TypeToolResult = "tool_result"
)
