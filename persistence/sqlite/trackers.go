package sqlite

import "github.com/sessionkeep/sessionkeep/session"

// A session's token tracker is set whole (session.SetTracker) as each reply ends: W1 sent
// 1,000 of them in its 23 batches, and each was an UPDATE of the session's row. Only the
// last of a batch stays, so the writer keeps it (touched.tracker) and writes it once
// (writeTrackers): at the batch's end, and before any op that is not a message op of its
// session (a fork, a management or context op, a new session), so that none of those sees
// or replaces a row the batch has not brought up to date.

// noteTracker keeps tracker as the one to write for the session of t.
func (t *touched) noteTracker(tracker session.TokenTracker) {
	t.tracker = &tracker
}

// writeTrackers writes the token tracker each session of sessions was last given in the
// batch, once.
func (w *writer) writeTrackers(sessions map[int64]*touched) error {
	for sid, t := range sessions {
		if t.tracker == nil {
			continue
		}
		k := t.tracker
		if _, err := w.c.exec(`UPDATE sessions SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
			cache_creation_tokens = ?, context_tokens = ? WHERE sid = ?`,
			k.InputTokens, k.OutputTokens, k.CacheReadInputTokens, k.CacheCreationInputTokens, k.ContextTokens, sid); err != nil {
			return err
		}
		t.tracker = nil
	}
	return nil
}

// isMessageOp reports whether op is one of the ops a session's messages are written by,
// which leave its token columns alone: a tracker kept back may wait past them.
func isMessageOp(op session.Op) bool {
	switch op.(type) {
	case session.BeginMessage, session.PutBlock, session.EndMessage, session.SetTracker,
		session.SetTitle, session.SetUpdatedAt:
		return true
	}
	return false
}
