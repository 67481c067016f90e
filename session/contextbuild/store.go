package contextbuild

import (
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

// storeOf returns the store a session records into as context building uses it: a store
// without a context cache cannot build contexts.
func storeOf(s *session.Session) (Store, error) {
	st, ok := s.Store().(Store)
	if !ok {
		return nil, fmt.Errorf("%w: the session's store (%T) keeps no context cache", session.ErrInvalidArgument, s.Store())
	}
	return st, nil
}
