package session

// TokenCounter counts the tokens of messages as they end (package tokens has the one the
// addon uses): the Manager hands it each message that ends, and a context build waits for
// the counts of its session before it reads them.
type TokenCounter interface {
	// Add queues an ended message to count; it must not wait for the counting.
	Add(m EndedMessage)
	// Wait returns once every message of a session queued so far is counted and handed to
	// the store, or the counter is closed.
	Wait(sessionID string)
	// Forget drops what the counter keeps of a session that has shut down.
	Forget(sessionID string)
	// Close drops what is queued and waits for the count in progress.
	Close()
}

// EndedMessage is a message that has just ended, as a TokenCounter counts it. Blocks are
// the stored JSON of its content blocks; Usage is what the provider reported, if anything.
type EndedMessage struct {
	SessionID string
	Seq       int64
	Role      string
	Provider  string
	Sidechain bool
	Blocks    [][]byte
	Usage     *Usage
}
