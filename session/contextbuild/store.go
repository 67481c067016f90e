package contextbuild

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// Store is what context building needs of a store: token counting's writes and reads,
// and the context cache.
type Store interface {
	tokens.Store
	CacheStore
}

// storeOf returns the store a session records into as context building uses it. A backend
// without a context cache cannot build contexts, and the build fails with
// errors.ErrUnsupported; the SQLite one checks at compile time that it has one.
func storeOf(s *session.Session) (Store, error) {
	st, ok := s.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the store of session %s keeps no context cache", errors.ErrUnsupported, s.ID())
	}
	return st, nil
}
