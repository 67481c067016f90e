package tokens

import "github.com/sessionkeep/sessionkeep/session"

// Store is what token counting needs of a store: the writer that takes its SetTokens,
// and the reads that find and scan the messages whose counts are missing.
type Store interface {
	// Apply queues ops for writing, in order.
	Apply(ops ...session.Op)
	// Sync waits until every Op queued so far is committed and visible to reads.
	Sync() error
	// FirstUncounted returns the first message whose cumulative count is missing (never
	// counted, or counted after one that was not), skipping a message still streaming.
	FirstUncounted(sessionID string) (seq int64, found bool, err error)
	// ScanContext calls fn for each message with from ≤ seq ≤ to, in order, with its
	// counts. The message is valid only during the call.
	ScanContext(sessionID string, from, to int64, fn func(*ContextMessage) error) error
}
