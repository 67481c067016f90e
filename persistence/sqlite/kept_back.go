package sqlite

import (
	"strconv"
	"unicode/utf8"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Two writes a reply makes to its session are kept back to the end of the batch and made
// once per session there (writeKeptBack), not once per reply: W1 sent 1,000 of each in its
// 23 batches. A session's token tracker is set whole (session.SetTracker), so only the last
// of a batch is written, one UPDATE of the session's row; the tool calls its blocks start
// (session.PutBlock's ToolUseID) go into tool_uses in one INSERT, in the order they came,
// so that the first of a repeated id still wins. Both are written too before any op that
// is not a message op of a session (a fork, a management or context op, a new session), so
// that none of those sees or replaces rows the batch has not brought up to date.

// toolUse is a tool call a block of message seq starts, not written yet.
type toolUse struct {
	id  string
	seq int64
}

// noteTracker keeps tracker as the one to write for the session of t.
func (t *touched) noteTracker(tracker session.TokenTracker) {
	t.tracker = &tracker
}

// writeKeptBack writes what the batch kept back of each session of sessions: its last
// token tracker and the tool calls its blocks started.
func (w *writer) writeKeptBack(sessions map[int64]*touched) error {
	for sid, t := range sessions {
		if k := t.tracker; k != nil {
			if _, err := w.c.exec(`UPDATE sessions SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
				cache_creation_tokens = ?, context_tokens = ? WHERE sid = ?`,
				k.InputTokens, k.OutputTokens, k.CacheReadInputTokens, k.CacheCreationInputTokens, k.ContextTokens, sid); err != nil {
				return err
			}
			t.tracker = nil
		}
		if len(t.toolUses) > 0 {
			if err := w.insertToolUses(sid, t.toolUses); err != nil {
				return err
			}
			t.toolUses = t.toolUses[:0]
		}
	}
	return nil
}

// insertToolUses inserts the tool calls uses of session sid, in order, as one JSON array
// of [id, seq] pairs; an id that JSON would not hold byte for byte (not UTF-8) is inserted
// alone, in its place.
func (w *writer) insertToolUses(sid int64, uses []toolUse) error {
	list := []byte{'['}
	flush := func() error {
		if len(list) == 1 {
			return nil
		}
		list[len(list)-1] = ']'
		_, err := w.c.exec(`INSERT OR IGNORE INTO tool_uses(sid, tool_use_id, seq)
			SELECT ?, value ->> 0, value ->> 1 FROM json_each(?)`, sid, list)
		list = list[:1]
		return err
	}
	for _, u := range uses {
		if !utf8.ValidString(u.id) {
			if err := flush(); err != nil {
				return err
			}
			if _, err := w.c.exec(`INSERT OR IGNORE INTO tool_uses(sid, tool_use_id, seq) VALUES (?, ?, ?)`, sid, u.id, u.seq); err != nil {
				return err
			}
			continue
		}
		list = append(jsonenc.AppendString(append(list, '['), u.id), ',')
		list = append(strconv.AppendInt(list, u.seq, 10), ']', ',')
	}
	return flush()
}

// isMessageOp reports whether op is one of the ops a session's messages are written by,
// which leave its token columns and its tool calls alone: what is kept back may wait past
// them.
func isMessageOp(op session.Op) bool {
	switch op.(type) {
	case session.BeginMessage, session.PutBlock, session.EndMessage, session.SetTracker,
		session.SetTitle, session.SetUpdatedAt:
		return true
	}
	return false
}
