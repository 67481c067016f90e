package importing

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// Store is what an import needs of a store: the message log it appends to, and beside it
// which records and file snapshots a session holds already, so that importing the same
// records again changes nothing. A backend implements it on the same value as
// session.Store.
type Store interface {
	session.MessageLog
	// HeldUUIDs returns which of uuids the session holds a message or record of.
	HeldUUIDs(sessionID string, uuids []string) (map[string]struct{}, error)
	// FileSnapshots returns the file snapshots of a session in the order they were put,
	// each with its files in path order, without their content.
	FileSnapshots(sessionID string) ([]session.FileSnapshot, error)
}

// storeOf returns the store of m as an import needs it. A backend that cannot tell which
// records a session holds is refused with errors.ErrUnsupported before anything is
// written; the SQLite one checks at compile time that it can.
func storeOf(m *session.Manager) (Store, error) {
	st, ok := m.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the store keeps no index of the records and file snapshots a session holds", errors.ErrUnsupported)
	}
	return st, nil
}
