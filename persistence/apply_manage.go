package persistence

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// applyManagement applies an Op that changes what is known about a session rather than
// what it says; it leaves the session's place in the listing alone.
func (w *writer) applyManagement(op session.ManagementOp) error {
	switch op := op.(type) {
	case session.AccessSession:
		return w.update(op.SessionID, `UPDATE sessions SET last_accessed_at = max(last_accessed_at, ?) WHERE sid = ?`, op.At.UnixMilli())
	case session.CloseSession:
		return w.update(op.SessionID, `UPDATE sessions SET last_accessed_at = max(last_accessed_at, ?),
			is_open = CASE WHEN owner = ? THEN 0 ELSE is_open END,
			status = CASE WHEN ? THEN 'interrupted' ELSE status END WHERE sid = ?`,
			op.At.UnixMilli(), w.owner, op.Interrupted)
	}
	return fmt.Errorf("unknown op %T", op)
}

// update runs an UPDATE of one session whose last argument is the session's key.
func (w *writer) update(id, query string, args ...any) error {
	sid, err := w.sid(id)
	if err != nil {
		return err
	}
	_, err = w.c.exec(query, append(args, sid)...)
	return err
}

// nullable is s, or NULL when s is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
