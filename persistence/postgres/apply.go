package postgres

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// errConflict is an Op that conflicts with what is stored (a seq another writer took): it
// is skipped and reported through Flush, as on SQLite.
var errConflict = errors.New("conflict")

// messageKey names a message of the database.
type messageKey struct{ sid, seq int64 }

// touched is what a batch changed of one session's listing (see the SQLite backend's
// apply.go, whose rules this follows).
type touched struct {
	id          string
	messages    int64
	updatedAt   int64
	interrupted bool
}

// batchWriter applies one batch inside the writer's transaction. PostgreSQL aborts a
// transaction at its first failed statement, so conflicts are found without one: inserts
// say ON CONFLICT DO NOTHING and a row not inserted is the conflict.
type batchWriter struct {
	w        *writer
	c        conn
	sessions map[int64]*touched
}

// apply applies every Op, then updates the listings and notifies watchers. A careful
// batch runs each Op under a savepoint, so that an Op PostgreSQL refuses (a value it cannot
// store, a constraint) is skipped and reported rather than failing the batch for ever.
func (b *batchWriter) apply(batch []session.Op, careful bool) error {
	for _, op := range batch {
		var err error
		if careful {
			err = b.applyGuarded(op)
		} else {
			err = b.applyOp(op)
		}
		if errors.Is(err, errConflict) || errors.Is(err, errUnknownSession) {
			b.w.noteDropped(err)
			continue
		}
		if err != nil {
			return err
		}
	}
	return b.touch()
}

// applyGuarded applies op under a savepoint and turns a refusal of its data into a conflict.
func (b *batchWriter) applyGuarded(op session.Op) error {
	if _, err := b.c.exec(`SAVEPOINT op`); err != nil {
		return err
	}
	err := b.applyOp(op)
	if refused(err) {
		if _, rerr := b.c.exec(`ROLLBACK TO SAVEPOINT op`); rerr != nil {
			return rerr
		}
		return fmt.Errorf("%w: %v", errConflict, err)
	}
	if err != nil {
		return err
	}
	_, err = b.c.exec(`RELEASE SAVEPOINT op`)
	return err
}

func (b *batchWriter) applyOp(op session.Op) error {
	switch op := op.(type) {
	case session.CreateSession:
		_, err := b.createSession(op.Info)
		return err
	case session.ForkSession:
		return b.fork(op)
	case session.ManagementOp:
		b.noteInterrupted(op)
		return b.applyManagement(op)
	case session.ContextOp:
		return b.applyContextOp(op)
	}
	sessionOp, ok := op.(session.SessionOp)
	if !ok {
		return fmt.Errorf("unknown op %T", op)
	}
	sid, err := b.sid(sessionOp.SessionOf())
	if err != nil {
		return err
	}
	t := b.sessions[sid]
	if t == nil {
		t = &touched{id: sessionOp.SessionOf()}
		b.sessions[sid] = t
	}
	return b.applySessionOp(sid, t, op)
}

func (b *batchWriter) applySessionOp(sid int64, t *touched, op session.Op) error {
	switch op := op.(type) {
	case session.BeginMessage:
		t.messages++
		t.interrupted = false
		h := op.Header
		n, err := b.c.exec(`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider,
				request_id, is_sidechain, continues, meta, extra)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'streaming', $8, $9, $10, $11, $12, $13, $14) ON CONFLICT DO NOTHING`,
			sid, h.Seq, h.UUID, h.ParentUUID, h.Type, h.Role, h.Turn, h.CreatedAt.UnixMilli(), h.Provider, h.RequestID,
			h.IsSidechain, h.Continues, jsonObject(h.Meta), jsonObject(h.Extra))
		if err == nil && n == 0 {
			t.messages--
			b.w.refused[messageKey{sid, h.Seq}] = true
			return fmt.Errorf("%w: session %s already has a message at seq %d", errConflict, op.SessionID, h.Seq)
		}
		return err
	case session.PutBlock:
		if b.w.refused[messageKey{sid, op.Seq}] {
			return fmt.Errorf("%w: block %d of a message refused at seq %d", errConflict, op.Index, op.Seq)
		}
		return b.putBlock(sid, op)
	case session.EndMessage:
		if b.w.refused[messageKey{sid, op.Seq}] {
			delete(b.w.refused, messageKey{sid, op.Seq})
			return fmt.Errorf("%w: the end of a message refused at seq %d", errConflict, op.Seq)
		}
		u := op.Usage
		_, err := b.c.exec(`UPDATE messages SET status = $1, meta = $2, extra = $3, input_tokens = $4, output_tokens = $5,
			cache_read_tokens = $6, cache_creation_tokens = $7 WHERE sid = $8 AND seq = $9`,
			op.Status, jsonObject(op.Meta), jsonObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens,
			u.CacheCreationInputTokens, sid, op.Seq)
		return err
	case session.SetTracker:
		tr := op.Tracker
		_, err := b.c.exec(`UPDATE sessions SET input_tokens = $1, output_tokens = $2, cache_read_tokens = $3,
			cache_creation_tokens = $4, context_tokens = $5 WHERE sid = $6`,
			tr.InputTokens, tr.OutputTokens, tr.CacheReadInputTokens, tr.CacheCreationInputTokens, tr.ContextTokens, sid)
		return err
	case session.SetTitle:
		// A title made from the first prompt never replaces one the user gave.
		_, err := b.c.exec(`UPDATE sessions SET title = $1 WHERE sid = $2 AND title = ''`, storableText(op.Title), sid)
		return err
	case session.SetUpdatedAt:
		t.updatedAt = op.Time.UnixMilli()
		return nil
	case session.MoveHead:
		if _, err := b.c.exec(`INSERT INTO rewinds(sid, at_seq, uuid, created_at) VALUES ($1, $2, $3, $4)`,
			sid, op.AtSeq, op.UUID, op.At.UnixMilli()); err != nil {
			return err
		}
		_, err := b.c.exec(`UPDATE sessions SET branched = true WHERE sid = $1`, sid)
		return err
	case session.PutFileSnapshot:
		return b.putFileSnapshot(sid, op.Snapshot)
	case session.AddRedactions:
		_, err := b.c.exec(`UPDATE sessions SET redactions = redactions + $1 WHERE sid = $2`, op.Count, sid)
		return err
	}
	return fmt.Errorf("unknown op %T", op)
}

// noteInterrupted notes a close that marks a session interrupted after messages of the
// same batch, so that touch leaves the status it sets.
func (b *batchWriter) noteInterrupted(op session.ManagementOp) {
	closed, ok := op.(session.CloseSession)
	if !ok || !closed.Interrupted {
		return
	}
	if sid, err := b.sid(closed.SessionID); err == nil && b.sessions[sid] != nil {
		b.sessions[sid].interrupted = true
	}
}

// createSession inserts a session; a key another host took first leaves it uncreated
// (ok false), and session.Manager then opens the session that holds the key.
func (b *batchWriter) createSession(info session.SessionInfo) (ok bool, err error) {
	sid := int64(-1)
	err = b.c.query(`INSERT INTO sessions(id, project_path, title, provider, model, context_window, created_at, updated_at,
			last_accessed_at, status, owner, is_open, session_key)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true, $12) ON CONFLICT DO NOTHING RETURNING sid`,
		[]any{info.ID, info.ProjectPath, storableText(info.Title), info.Provider, info.Model, info.ContextWindow,
			info.CreatedAt.UnixMilli(), info.UpdatedAt.UnixMilli(), info.CreatedAt.UnixMilli(), info.Status, b.w.owner, nullable(info.Key)},
		func(row []any) error {
			sid = row[0].(int64)
			return nil
		})
	if err != nil || sid < 0 {
		return false, err
	}
	b.w.sids[info.ID] = sid
	return true, nil
}

// sid returns the database key of a session.
func (b *batchWriter) sid(id string) (int64, error) {
	if sid, ok := b.w.sids[id]; ok {
		return sid, nil
	}
	sid, err := lookupSID(b.c, id)
	if err == nil {
		b.w.sids[id] = sid
	}
	return sid, err
}

// putBlock stores a block, or replaces a partial checkpoint of it, with its search terms
// once it is complete, and notes a tool_use for ToolUseSeq.
func (b *batchWriter) putBlock(sid int64, op session.PutBlock) error {
	var text any // NULL: nothing to search
	if !op.Partial {
		if t, ok := searchText(op.JSON); ok {
			text = t
		}
	}
	_, err := b.c.exec(`INSERT INTO blocks(sid, seq, idx, partial, body, search_text) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (sid, seq, idx) DO UPDATE SET partial = excluded.partial, body = excluded.body, search_text = excluded.search_text`,
		sid, op.Seq, op.Index, op.Partial, op.JSON, text)
	if err != nil || op.ToolUseID == "" {
		return err
	}
	_, err = b.c.exec(`INSERT INTO tool_uses(sid, tool_use_id, seq) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, sid, op.ToolUseID, op.Seq)
	return err
}

// touch updates the listing of every session the batch wrote to and notifies the store's
// channel with each one's id.
func (b *batchWriter) touch() error {
	now := time.Now().UnixMilli()
	for sid, t := range b.sessions {
		updated := now
		if t.updatedAt != 0 {
			updated = t.updatedAt
		}
		active := t.messages > 0 && !t.interrupted
		if _, err := b.c.exec(`UPDATE sessions SET message_count = message_count + $1, updated_at = $2, owner = $3,
			status = CASE WHEN $4 THEN 'active' ELSE status END WHERE sid = $5`,
			t.messages, updated, b.w.owner, active, sid); err != nil {
			return err
		}
		if _, err := b.c.exec(`SELECT pg_notify($1, $2)`, b.w.channel, t.id); err != nil {
			return err
		}
	}
	return nil
}

// jsonObject returns obj, or an empty JSON object for nil: meta and extra are never NULL.
func jsonObject(obj []byte) []byte {
	if len(obj) == 0 {
		return []byte("{}")
	}
	return obj
}

// storableText is a title as PostgreSQL text can hold it: a NUL character, or bytes that are
// not UTF-8, become U+FFFD. A title is often made from the first prompt, which may hold
// either; refusing the title would refuse the session.
func storableText(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// nullable is s, or NULL when s is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
