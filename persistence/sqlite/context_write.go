package sqlite

import (
	"errors"

	"github.com/sessionkeep/sessionkeep/persistence/contextcache"
	"github.com/sessionkeep/sessionkeep/session"
)

// applyContextOp applies an Op of the context builder (contextcache.Apply) to its session,
// unless the session was deleted after it was queued: nothing to keep it for then.
func (w *writer) applyContextOp(op session.ContextOp) error {
	sid, err := w.sid(op.SessionOf())
	if errors.Is(err, errUnknownSession) {
		return nil
	}
	if err != nil {
		return err
	}
	return contextcache.Apply(cacheDB{w.c}, sid, op)
}
