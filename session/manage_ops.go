package session

import "time"

// ManagementOp is an Op that changes what is known about a session rather than what it
// says: access times, titles, archive, the project it belongs to, hosted-agent state. It
// does not count as activity, so a session does not move up the listing for being
// renamed, archived or read.
type ManagementOp interface {
	Op
	managementOp()
}

// AccessSession records that the session was opened or used at At.
type AccessSession struct {
	SessionID string
	At        time.Time
}

// CloseSession records that this process let go of the session at At. Interrupted marks
// it interrupted: a message was cut off, or a hosted agent's session was left open at exit.
type CloseSession struct {
	SessionID   string
	At          time.Time
	Interrupted bool
}

func (AccessSession) op()           {}
func (AccessSession) managementOp() {}
func (CloseSession) op()            {}
func (CloseSession) managementOp()  {}
