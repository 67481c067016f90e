package session

import "time"

// MoveHead records that a rewind moved the session's head to the main-chain record UUID.
// AtSeq is the seq the next message gets: the move holds until a main-chain record is
// written at or after it. Nothing is deleted or rewritten.
type MoveHead struct {
	SessionID string
	UUID      string
	AtSeq     int64
	At        time.Time
}

// ForkSession creates the session Info (whose ForkedFrom names the origin) holding a copy
// of the records Seqs of session From, in that order: record Seqs[i] becomes record i of
// the new session, with its uuid, blocks and state. Large payloads are blobs, shared by
// hash rather than copied. File snapshots taken at the copied records come along. A
// record the origin still has streaming is interrupted in the copy.
type ForkSession struct {
	Info    SessionInfo
	From    string
	Seqs    []int64
	Tracker TokenTracker
}

// PutFileSnapshot adds a file-history snapshot to a session: the state of files at one of
// its messages. A snapshot whose ID the session already holds is left as it is, so an
// import can put the same snapshots again without duplicating them.
type PutFileSnapshot struct {
	SessionID string
	Snapshot  FileSnapshot
}

func (MoveHead) op()        {}
func (ForkSession) op()     {}
func (PutFileSnapshot) op() {}

// SessionOf returns the session the op belongs to.
func (o MoveHead) SessionOf() string { return o.SessionID }

// SessionOf returns the session the op belongs to.
func (o PutFileSnapshot) SessionOf() string { return o.SessionID }

// ForkOrigin is where a forked session came from: the session, and the record whose
// history the fork shares.
type ForkOrigin struct {
	SessionID string `json:"sessionId"`
	UUID      string `json:"uuid"`
}
