package hosted

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// Status returns the session's status as stored: active, interrupted, archived or corrupted.
func Status(s *session.Session) (string, error) {
	if err := s.Sync(); err != nil {
		return "", err
	}
	list, ok := s.Store().(catalog.Listing)
	if !ok {
		return "", fmt.Errorf("%w: the store of session %s keeps no listing", errors.ErrUnsupported, s.ID())
	}
	found, err := list.FindSessions(s.ID(), 1)
	if err != nil {
		return "", err
	}
	if len(found) == 0 || found[0].ID != s.ID() {
		return "", fmt.Errorf("%w: session %s was deleted", session.ErrSessionNotFound, s.ID())
	}
	return found[0].Status, nil
}
