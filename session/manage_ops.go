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

// RenameSession sets the session's title, replacing one made from its first prompt.
type RenameSession struct {
	SessionID string
	Title     string
}

// SetArchived archives the session at At, or unarchives it when At is zero.
type SetArchived struct {
	SessionID string
	At        time.Time
}

// DeleteSession deletes the session and everything it holds. Only an explicit call of the
// user's makes this Op: sessionkeep never deletes on its own.
type DeleteSession struct{ SessionID string }

// MoveProject moves the sessions of project From, and of the folders inside it, to To.
type MoveProject struct{ From, To string }

// MarkCorrupted records why the session's stored rows cannot be read.
type MarkCorrupted struct {
	SessionID string
	Reason    string
}

func (RenameSession) op()           {}
func (RenameSession) managementOp() {}
func (SetArchived) op()             {}
func (SetArchived) managementOp()   {}
func (DeleteSession) op()           {}
func (DeleteSession) managementOp() {}
func (MoveProject) op()             {}
func (MoveProject) managementOp()   {}
func (MarkCorrupted) op()           {}
func (MarkCorrupted) managementOp() {}
