package session

import (
	"time"
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
	// Close flushes and closes the store.
	Close() error
	// FindSessions returns up to limit sessions whose id starts with prefix, in id order.
	FindSessions(prefix string, limit int) ([]SessionInfo, error)
	// SessionDetails returns what SessionInfo lists of a session with its message counts
	// and its token usage by model.
	SessionDetails(id string) (SessionDetails, error)
	// CountProjectSessions counts the sessions of projectPath and of the folders inside it.
	CountProjectSessions(projectPath string) (int64, error)
	// SessionIDByKey returns the id of the session of a hosted agent's key; "" when none.
	SessionIDByKey(key string) (string, error)
	// History returns the last limit entries (all when limit is 0) of a session's manual
	// history, oldest first.
	History(sessionID string, limit int) ([]HistoryEntry, error)
	// ScanMessagesBackward calls fn for the messages of a session's main conversation (not
	// its sidechains) from the last back to seq fromSeq, until fn returns false.
	ScanMessagesBackward(sessionID string, fromSeq int64, fn func(*StoredMessage) bool) error
	// Search returns the messages whose text matches q, best first.
	Search(q SearchQuery) ([]SearchHit, error)
	// UsageByDay sums the usage of messages by day and model, in day then model order.
	UsageByDay(filter StatsFilter) ([]UsageRow, error)
	// ScanMessagesFrom is ScanMessages from message fromSeq on, found through the index.
	ScanMessagesFrom(sessionID string, fromSeq int64, fn func(*StoredMessage) error) error
	// MessageUUIDs returns the uuids of a session's messages and records.
	MessageUUIDs(sessionID string) (map[string]struct{}, error)
	// ToolUseTurn returns the turn of the message holding a session's tool_use block with
	// the given id; found is false when there is none.
	ToolUseTurn(sessionID, toolUseID string) (turn int64, found bool, err error)

	// Branched reports whether a session may hold records off the branch that ends at its
	// newest main-chain record: it was rewound, or a record's parent is not the main-chain
	// record written before it. A session that never branched is read without its tree.
	Branched(sessionID string) (bool, error)
	// ScanLinks calls fn for each record of a session, in order, with its place in the
	// tree. The Link is valid only during the call.
	ScanLinks(sessionID string, fn func(*Link) error) error
	// FileSnapshots returns the file snapshots of a session in the order they were put,
	// each with its files in path order, without their content.
	FileSnapshots(sessionID string) ([]FileSnapshot, error)
	// FileContent returns the content stored for file path of the snapshot snapshotID of a
	// session; nil when the snapshot holds no content for it.
	FileContent(sessionID, snapshotID, path string) ([]byte, error)
	// ScanEncoded calls fn for each message of a session from seq fromSeq on, in order,
	// like ScanMessagesFrom, but a message the store keeps encoded may come with only Seq,
	// Role, IsSidechain, Continues, Encoded and MessageAt set.
	ScanEncoded(sessionID string, fromSeq int64, fn func(*StoredMessage) error) error
	// ToolUseSeq returns the seq of the record of a session holding the tool_use block
	// toolUseID, and whether there is one.
	ToolUseSeq(sessionID, toolUseID string) (seq int64, found bool, err error)
}

// SessionInfo is the listing of a session: what a picker, `sessionkeep ls` and a resume
// summary show without reading the session's messages.
type SessionInfo struct {
	ID             string       `json:"id"`
	ProjectPath    string       `json:"projectPath"`
	Title          string       `json:"title"`
	Provider       string       `json:"provider,omitempty"`
	Model          string       `json:"model,omitempty"`
	ContextWindow  int64        `json:"contextWindow,omitempty"`
	CreatedAt      time.Time    `json:"createdAt"`
	UpdatedAt      time.Time    `json:"updatedAt"`
	LastMessageAt  time.Time    `json:"lastMessageAt"`
	LastAccessedAt time.Time    `json:"lastAccessedAt"`
	ArchivedAt     time.Time    `json:"archivedAt"`
	MessageCount   int64        `json:"messageCount"`
	ToolCount      int64        `json:"toolCount"`
	Tokens         TokenTracker `json:"tokens"`
	// Status is StatusCorrupted when Corruption is set, else StatusArchived when the session
	// is archived, else the stored StatusActive or StatusInterrupted.
	Status     string `json:"status"`
	Corruption string `json:"corruption,omitempty"` // why the session is corrupted
	Key        string `json:"key,omitempty"`        // workspace:channel:handle, for hosted agents
	Checkpoint *int64 `json:"checkpoint,omitempty"` // the last committed pubsub id
	SDKSession string `json:"sdkSessionId,omitempty"`
	// ForkedFrom names the session and record this one was forked from, nil when it was not.
	ForkedFrom *ForkOrigin `json:"forkedFrom,omitempty"`
	// Redactions counts the secrets replaced in the session's tool inputs and outputs, on a
	// store opened with redaction.
	Redactions int64 `json:"redactions,omitempty"`
	// SeenSeq is the seq of the first message a hosted agent has not seen.
	SeenSeq int64 `json:"-"`
}

// Session statuses.
const (
	StatusActive      = "active"
	StatusInterrupted = "interrupted"
	StatusArchived    = "archived"
	StatusCorrupted   = "corrupted"
)

// SessionState is what a Session continues from when it is opened.
type SessionState struct {
	Info     SessionInfo
	Tracker  TokenTracker
	NextSeq  int64  // the seq the next message gets
	LastUUID string // the head: the main-chain record the next message follows
	LastTurn int64
}

// ListFilter narrows ListSessions. Zero values mean no filter; Limit 0 means all.
// Archived sessions are left out unless IncludeArchived is set. Fields names the
// SessionInfo fields wanted (all when empty); Manager.List turns them into Want, which is
// what the store reads.
type ListFilter struct {
	ProjectPath     string     `json:"projectPath"`
	Limit           int        `json:"limit"`
	Offset          int        `json:"offset"`
	IncludeArchived bool       `json:"includeArchived"`
	Fields          []string   `json:"fields"`
	Want            InfoFields `json:"-"`
}
