package session

import "errors"

// MessageLog is the ordered log of a session's records: what recording, restoring and
// reading a conversation need from a store. Its methods are primitive (append, read in
// order, look up one index); what can be computed from the records is computed over them
// in this package, once for every backend.
type MessageLog interface {
	// Apply queues ops for writing, in order.
	Apply(ops ...Op)
	// Sync waits until every Op queued so far is committed and visible to reads.
	Sync() error
	// Flush waits until every Op queued so far is durable on disk.
	Flush() error
	// LoadSession returns what a Session needs to continue id; ErrSessionNotFound if none.
	LoadSession(id string) (SessionState, error)
	// ScanMessages calls fn for each message of a session, in order. The message and its
	// slices are valid only during the call.
	ScanMessages(sessionID string, fn func(*StoredMessage) error) error
	// ScanMessagesFrom is ScanMessages from message fromSeq on, found through the index.
	// When fn returns StopScan the scan ends there and returns nil.
	ScanMessagesFrom(sessionID string, fromSeq int64, fn func(*StoredMessage) error) error
	// ScanMessagesBackward calls fn for the messages of a session's main conversation (not
	// its sidechains) from the last back to seq fromSeq, until fn returns false.
	ScanMessagesBackward(sessionID string, fromSeq int64, fn func(*StoredMessage) bool) error
	// ScanEncoded calls fn for each message of a session from seq fromSeq on, in order,
	// like ScanMessagesFrom, but a message the store keeps encoded may come with only Seq,
	// Role, IsSidechain, Continues, Encoded and MessageAt set.
	ScanEncoded(sessionID string, fromSeq int64, fn func(*StoredMessage) error) error
	// Turns returns the turns of a session, in order.
	Turns(sessionID string) ([]Turn, error)
	// ToolUseSeq returns the seq of the record of a session holding the tool_use block
	// toolUseID, and whether there is one.
	ToolUseSeq(sessionID, toolUseID string) (seq int64, found bool, err error)
}

// StopScan is what a scan's fn returns to end the scan early without an error, as
// fs.SkipAll ends a walk.
var StopScan = errors.New("stop the scan")
