package persistence

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// errUnknownSession is an Op for a session the database does not hold.
var errUnknownSession = errors.New("no such session in the database")

// touched is what a batch changed of one session's listing.
type touched struct{ messages int64 }

// batch is what one commit changes besides the statements it runs at once: the messages
// it touched, written when every Op of the batch has been applied.
type batch struct {
	sessions map[int64]*touched
	messages []*openMessage // in the order the batch first touched them
}

// commit applies a batch of Ops in one transaction. An Op that conflicts with what is
// stored is skipped and reported through dropped; any other failure rolls the whole batch
// back so that it can be retried.
func (w *writer) commit(ops []session.Op) error {
	if len(ops) == 0 {
		return nil
	}
	if _, err := w.c.exec("BEGIN IMMEDIATE"); err != nil {
		return storageError("starting a write", err)
	}
	b := &batch{sessions: map[int64]*touched{}}
	if err := w.write(ops, b); err != nil {
		w.c.exec("ROLLBACK")
		w.abandonedMessages(b)
		return err
	}
	w.committedMessages(b)
	return nil
}

// write runs the statements of a batch and commits them.
func (w *writer) write(ops []session.Op, b *batch) error {
	for _, op := range ops {
		if err := w.applyOp(op, b); err != nil && !w.skipped(err) {
			return storageError("writing", err)
		}
	}
	for _, m := range b.messages {
		if err := w.writeMessage(m); err != nil && !w.skipped(err) {
			return storageError("writing", err)
		}
	}
	if err := w.touch(b.sessions); err != nil {
		return storageError("updating session listings", err)
	}
	if _, err := w.c.exec("COMMIT"); err != nil {
		return storageError("committing", err)
	}
	return nil
}

// skipped reports whether err is a write that conflicts with what is stored, which is
// skipped and reported by the next Flush instead of failing the batch.
func (w *writer) skipped(err error) bool {
	if !isConstraint(err) && !errors.Is(err, errUnknownSession) {
		return false
	}
	w.mu.Lock()
	w.dropped = fmt.Errorf("%w: a write conflicted with what is stored and was skipped (is another process writing the same session?): %v", session.ErrStorage, err)
	w.mu.Unlock()
	return true
}

func (w *writer) applyOp(op session.Op, b *batch) error {
	if create, ok := op.(session.CreateSession); ok {
		return w.createSession(create.Info)
	}
	sid, err := w.sid(opSession(op))
	if err != nil {
		return err
	}
	t := b.sessions[sid]
	if t == nil {
		t = &touched{}
		b.sessions[sid] = t
	}
	switch op := op.(type) {
	case session.BeginMessage:
		t.messages++
		m := &openMessage{sid: sid, hdr: op.Header}
		w.open[msgKey{sid, op.Header.Seq}] = m
		b.touch(m)
	case session.PutBlock:
		err = w.putBlock(sid, op, b)
	case session.EndMessage:
		err = w.endMessage(sid, op, b)
	case session.SetTracker:
		t := op.Tracker
		_, err = w.c.exec(`UPDATE sessions SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
			cache_creation_tokens = ?, context_tokens = ? WHERE sid = ?`,
			t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens, sid)
	case session.SetTitle:
		_, err = w.c.exec(`UPDATE sessions SET title = ? WHERE sid = ?`, op.Title, sid)
	default:
		err = fmt.Errorf("unknown op %T", op)
	}
	return err
}

// opSession returns the id of the session an Op belongs to.
func opSession(op session.Op) string {
	switch op := op.(type) {
	case session.BeginMessage:
		return op.SessionID
	case session.PutBlock:
		return op.SessionID
	case session.EndMessage:
		return op.SessionID
	case session.SetTracker:
		return op.SessionID
	case session.SetTitle:
		return op.SessionID
	}
	return ""
}

func (w *writer) createSession(info session.SessionInfo) error {
	res, err := w.c.exec(`INSERT INTO sessions(id, project_path, title, provider, model, context_window, created_at, updated_at, status, owner)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		info.ID, info.ProjectPath, info.Title, info.Provider, info.Model, info.ContextWindow,
		info.CreatedAt.UnixMilli(), info.UpdatedAt.UnixMilli(), info.Status, w.owner)
	if err != nil {
		return err
	}
	sid, err := res.LastInsertId()
	w.sids[info.ID], w.ids[sid] = sid, info.ID
	return err
}

// sid returns the database key of a session.
func (w *writer) sid(id string) (int64, error) {
	if sid, ok := w.sids[id]; ok {
		return sid, nil
	}
	sid, err := lookupSID(w.c, id)
	if err == nil {
		w.sids[id], w.ids[sid] = sid, id
	}
	return sid, err
}

// lookupSID finds the database key of the session with id.
func lookupSID(c *conn, id string) (int64, error) {
	sid := int64(-1)
	err := c.query(`SELECT sid FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
		sid = row[0].(int64)
		return nil
	})
	if err == nil && sid < 0 {
		err = fmt.Errorf("%w: %s", errUnknownSession, id)
	}
	return sid, err
}

// touch updates the listing of every session the batch wrote to.
func (w *writer) touch(sessions map[int64]*touched) error {
	now := time.Now().UnixMilli()
	for sid, t := range sessions {
		if _, err := w.c.exec(`UPDATE sessions SET message_count = message_count + ?, updated_at = ?, owner = ?,
			status = CASE WHEN ? > 0 THEN 'active' ELSE status END WHERE sid = ?`,
			t.messages, now, w.owner, t.messages, sid); err != nil {
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
