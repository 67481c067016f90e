package hosted

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// Status returns the session's status as stored: active, interrupted, archived or corrupted.
func Status(s *session.Session) (string, error) {
	if err := s.Sync(); err != nil {
		return "", err
	}
	found, err := s.Store().FindSessions(s.ID(), 1)
	if err != nil {
		return "", err
	}
	if len(found) == 0 || found[0].ID != s.ID() {
		return "", fmt.Errorf("%w: session %s was deleted", session.ErrSessionNotFound, s.ID())
	}
	return found[0].Status, nil
}
