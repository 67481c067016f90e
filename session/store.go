package session

import "time"

// Store keeps sessions: every store interface a Manager needs, composed (as io.ReadWriter
// composes io.Reader and io.Writer), so that more than one implementation can exist (SQLite
// now; PostgreSQL for hosts that outgrow one machine) and be built and tested one interface
// at a time.
//
// Apply must not wait on disk: it queues Ops, which the Store applies in order and makes
// durable in the background within a bounded delay. Reads see every Op applied before them
// once Sync has returned.
type Store interface {
	MessageLog
	// Close flushes and closes the store.
	Close() error
	// SessionIDByKey returns the id of the session of a hosted agent's key; "" when none.
	SessionIDByKey(key string) (string, error)

	// Branched reports whether a session may hold records off the branch that ends at its
	// newest main-chain record: it was rewound, or a record's parent is not the main-chain
	// record written before it. A session that never branched is read without its tree.
	Branched(sessionID string) (bool, error)
	// ScanEncodedUnbranched is ScanEncoded for a session that never branched, asked and read
	// in one go: when the session branched it reports so and calls fn for nothing.
	ScanEncodedUnbranched(sessionID string, fromSeq int64, fn func(*StoredMessage) error) (branched bool, err error)
	// ScanLinks calls fn for each record of a session, in order, with its place in the
	// tree. The Link is valid only during the call.
	ScanLinks(sessionID string, fn func(*Link) error) error
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
	Branched bool // the session's Branched when it was loaded
}
