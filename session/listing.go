package session

// Listing reads the sessions of a store without their messages: what a picker, `ls`, a
// resume by id prefix and the management commands need.
type Listing interface {
	// ListSessions returns sessions newest first.
	ListSessions(filter ListFilter) ([]SessionInfo, error)
	// FindSessions returns up to limit sessions whose id starts with prefix, in id order.
	FindSessions(prefix string, limit int) ([]SessionInfo, error)
}
