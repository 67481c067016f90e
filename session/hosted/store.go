package hosted

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// Store is what a hosted agent's state needs of a store beyond what a session.Store reads:
// the manual history, and the main conversation read from its newest message back. A
// backend implements it beside session.Store, on the same value.
type Store interface {
	// History returns the last limit entries (all when limit is 0) of a session's manual
	// history, oldest first.
	History(sessionID string, limit int) ([]HistoryEntry, error)
	// ScanMessagesBackward calls fn for the messages of a session's main conversation (not
	// its sidechains) from the last back to seq fromSeq, until fn returns false.
	ScanMessagesBackward(sessionID string, fromSeq int64, fn func(*session.StoredMessage) bool) error
}

// storeOf returns the store of s as this package needs it, as net/http asks a
// ResponseWriter for a Flusher. A backend that keeps no hosted-agent state is refused with
// errors.ErrUnsupported; the SQLite one checks at compile time that it does.
func storeOf(s *session.Session) (Store, error) {
	st, ok := s.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the store of session %s keeps no hosted-agent state", errors.ErrUnsupported, s.ID())
	}
	return st, nil
}
