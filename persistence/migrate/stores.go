package migrate

import (
	"errors"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/contextbuild"
	"github.com/sessionkeep/sessionkeep/session/hosted"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
)

// store is what a move needs of each of its two stores beyond what an export and an
// import use: the pieces of a session an import of its records does not carry, read from the source and
// from the target (to tell what the target holds already).
type store interface {
	session.Store
	snapshots.Store
	hosted.Store
	contextbuild.CacheStore
}

// storeOf returns the store of m as a move reads and writes it; a backend that keeps fewer
// of a session's records is refused with errors.ErrUnsupported before anything is copied.
// role names it in the error: "source" or "target".
func storeOf(m *session.Manager, role string) (store, error) {
	st, ok := m.Store().(store)
	if !ok {
		return nil, fmt.Errorf("%w: the %s store keeps no file snapshots, hosted-agent state or context cache", errors.ErrUnsupported, role)
	}
	return st, nil
}
