package session

import "time"

// SetCheckpoint records the pubsub id a hosted agent has safely processed, and that it has
// seen every message before SeenSeq. The session is active again.
type SetCheckpoint struct {
	SessionID  string
	Checkpoint int64
	SeenSeq    int64
}

// SetSDKSession records the SDK's own session id (empty to clear it). When Seen, the SDK
// session has seen every message before SeenSeq.
type SetSDKSession struct {
	SessionID    string
	SDKSessionID string
	Seen         bool
	SeenSeq      int64
}

// AddHistory appends an entry to the manual history of a stateless responder.
type AddHistory struct {
	SessionID string
	Role      string
	Content   string
	At        time.Time
}

// ClearHistory deletes the session's manual history, on the user's explicit call.
type ClearHistory struct{ SessionID string }

func (SetCheckpoint) op()           {}
func (SetCheckpoint) managementOp() {}
func (SetSDKSession) op()           {}
func (SetSDKSession) managementOp() {}
func (AddHistory) op()              {}
func (AddHistory) managementOp()    {}
func (ClearHistory) op()            {}
func (ClearHistory) managementOp()  {}
