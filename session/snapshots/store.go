package snapshots

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// Store is what file snapshots need of a store beyond what a session.Store reads: the
// snapshots a session holds and the content they backed up. A backend implements it beside
// session.Store, on the same value.
type Store interface {
	// FileSnapshots returns the file snapshots of a session in the order they were put,
	// each with its files in path order, without their content.
	FileSnapshots(sessionID string) ([]session.FileSnapshot, error)
	// FileContent returns the content stored for file path of the snapshot snapshotID of a
	// session; nil when the snapshot holds no content for it.
	FileContent(sessionID, snapshotID, path string) ([]byte, error)
}

// storeOf returns the store of s as this package needs it, as net/http asks a
// ResponseWriter for a Flusher. A backend that keeps no file snapshots is refused with
// errors.ErrUnsupported; the SQLite one checks at compile time that it does.
func storeOf(s *session.Session) (Store, error) {
	st, ok := s.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the store of session %s keeps no file snapshots", errors.ErrUnsupported, s.ID())
	}
	return st, nil
}
