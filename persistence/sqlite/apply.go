package sqlite

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// errUnknownSession is an Op for a session the database does not hold.
var errUnknownSession = errors.New("no such session in the database")

// touched is what a batch changed of one session's listing: how many messages it added,
// whether the session is active again (a message begun after any close that interrupted
// it in the same batch), and when the session was last active when an Op says so (else
// it is now).
type touched struct {
	messages int64
	// lastMessageAt is when the batch's last message was made (ms); unlisted says the
	// listing does not show it yet (see listMessages).
	lastMessageAt int64
	unlisted      bool
	active        bool
	updatedAt     int64
	// interrupted: a close that cut a reply off came after the batch's last message, so
	// the messages do not make the session active again.
	interrupted bool
}

// commit applies a batch of Ops in one transaction. An Op that conflicts with what is
// stored is skipped and reported through dropped; any other failure rolls the whole batch
// back so that it can be retried.
func (w *writer) commit(batch []session.Op) error {
	if len(batch) == 0 {
		return nil
	}
	if _, err := w.c.Exec("BEGIN IMMEDIATE"); err != nil {
		return sqlconn.Wrap("starting a write", err)
	}
	sessions := map[int64]*touched{}
	w.ending = endingInBatch(batch)
	w.inserted.reset() // what a rolled-back batch owed went with it
	for _, op := range batch {
		err := w.applyOp(op, sessions)
		if err == nil {
			continue
		}
		if sqlconn.IsConstraint(err) || errors.Is(err, errUnknownSession) {
			w.noteDropped(err)
			continue
		}
		w.c.Exec("ROLLBACK")
		return sqlconn.Wrap("writing", err)
	}
	if err := w.settleInserts(); err != nil {
		w.c.Exec("ROLLBACK")
		return sqlconn.Wrap("queueing new messages for search", err)
	}
	if err := w.touch(sessions); err != nil {
		w.c.Exec("ROLLBACK")
		return sqlconn.Wrap("updating session listings", err)
	}
	if _, err := w.c.Exec("COMMIT"); err != nil {
		w.c.Exec("ROLLBACK")
		return sqlconn.Wrap("committing", err)
	}
	return nil
}

func (w *writer) applyOp(op session.Op, sessions map[int64]*touched) error {
	if create, ok := op.(session.CreateSession); ok {
		return w.createSession(create.Info)
	}
	if fork, ok := op.(session.ForkSession); ok {
		return w.fork(fork)
	}
	if op, ok := op.(session.ManagementOp); ok {
		w.noteInterrupted(op, sessions)
		if err := w.listMessages(sessions); err != nil {
			return err
		}
		return w.applyManagement(op)
	}
	if op, ok := op.(session.ContextOp); ok {
		return w.applyContextOp(op)
	}
	sessionOp, ok := op.(session.SessionOp)
	if !ok {
		return fmt.Errorf("unknown op %T", op)
	}
	sid, err := w.sid(sessionOp.SessionOf())
	if err != nil {
		return err
	}
	t := sessions[sid]
	if t == nil {
		t = &touched{}
		sessions[sid] = t
	}
	switch op := op.(type) {
	case session.BeginMessage:
		if w.refusesBegin(sid, op) {
			return nil
		}
		t.messages++
		t.lastMessageAt = op.Header.CreatedAt.UnixMilli()
		t.unlisted = true
		t.interrupted = false
		err = w.refuseOnConflict(sid, op.Header, t, w.beginMessage(sid, op))
	case session.PutBlock:
		if w.refused.has(sid, op.Seq) {
			return nil
		}
		err = w.putBlock(sid, op)
	case session.EndMessage:
		if w.refused.has(sid, op.Seq) {
			return nil
		}
		if b := w.open[msgbody.Key{SID: sid, Seq: op.Seq}]; b != nil && b.Unwritten {
			// Its row is inserted only now, where another process's may have taken its seq.
			err = w.refuseOnConflict(sid, b.Header, t, w.endMessage(sid, op))
		} else {
			err = w.endMessage(sid, op)
		}
	case session.SetTracker:
		t := op.Tracker
		_, err = w.c.Exec(`UPDATE sessions SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
			cache_creation_tokens = ?, context_tokens = ? WHERE sid = ?`,
			t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens, sid)
	case session.SetTitle:
		// A title made from the first prompt never replaces one the user gave.
		_, err = w.c.Exec(`UPDATE sessions SET title = ? WHERE sid = ? AND title = ''`, op.Title, sid)
	case session.SetUpdatedAt:
		t.updatedAt = op.Time.UnixMilli()
	case session.MoveHead:
		err = w.moveHead(sid, op)
	case session.PutFileSnapshot:
		err = w.putFileSnapshot(sid, op.Snapshot)
	case session.AddRedactions:
		_, err = w.c.Exec(`UPDATE sessions SET redactions = redactions + ? WHERE sid = ?`, op.Count, sid)
	default:
		err = fmt.Errorf("unknown op %T", op)
	}
	return err
}

// noteInterrupted notes a close that marks a session interrupted after messages of the
// same batch: they were written before it, so touch must leave the status it sets. A
// session the batch wrote no message of is not touched at all (management ops leave the
// listing's place alone).
func (w *writer) noteInterrupted(op session.ManagementOp, sessions map[int64]*touched) {
	closed, ok := op.(session.CloseSession)
	if !ok || !closed.Interrupted {
		return
	}
	if sid, err := w.sid(closed.SessionID); err == nil && sessions[sid] != nil {
		sessions[sid].interrupted = true
	}
}

func (w *writer) createSession(info session.SessionInfo) error {
	res, err := w.c.Exec(`INSERT INTO sessions(id, project_path, title, provider, model, context_window, created_at, updated_at,
			last_accessed_at, status, owner, is_open, session_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
		ON CONFLICT(session_key) WHERE session_key IS NOT NULL DO NOTHING`,
		info.ID, info.ProjectPath, info.Title, info.Provider, info.Model, info.ContextWindow,
		info.CreatedAt.UnixMilli(), info.UpdatedAt.UnixMilli(), info.CreatedAt.UnixMilli(), info.Status, w.owner, nullable(info.Key))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return err // another process took the key first; session.Manager opens its session
	}
	sid, err := res.LastInsertId()
	w.sids[info.ID] = sid
	return err
}

// sid returns the database key of a session.
func (w *writer) sid(id string) (int64, error) {
	if sid, ok := w.sids[id]; ok {
		return sid, nil
	}
	sid, err := lookupSID(w.c, id)
	if err == nil {
		w.sids[id] = sid
	}
	return sid, err
}

// lookupSID finds the database key of the session with id.
func lookupSID(c rowQuerier, id string) (int64, error) {
	sid := int64(-1)
	err := c.Query(`SELECT sid FROM sessions WHERE id = ?`, []any{id}, func(row []driver.Value) error {
		sid = row[0].(int64)
		return nil
	})
	if err == nil && sid < 0 {
		err = fmt.Errorf("%w: %s", errUnknownSession, id)
	}
	return sid, err
}

// putBlock journals a block of a message still streaming, or replaces a partial
// checkpoint of it. A block of a message that ends in the same batch is only held in
// memory: the message's body, written when it ends, is its one record.
func (w *writer) putBlock(sid int64, op session.PutBlock) error {
	journal := !w.ending[batchMessage{op.SessionID, op.Seq}]
	if journal {
		if err := w.journalBlock(sid, op.Seq, op.Index, op.Partial, op.JSON); err != nil {
			return err
		}
	}
	w.open.Put(sid, op, journal)
	if op.ToolUseID == "" {
		return nil
	}
	_, err := w.c.Exec(`INSERT OR IGNORE INTO tool_uses(sid, tool_use_id, seq) VALUES (?, ?, ?)`, sid, op.ToolUseID, op.Seq)
	return err
}

// journalBlock writes block idx of message seq of session sid as a block row, or replaces
// the row of a partial checkpoint of it.
func (w *writer) journalBlock(sid, seq int64, idx int, partial bool, json []byte) error {
	_, err := w.c.Exec(`INSERT INTO blocks(sid, seq, idx, partial, body, blob_id) VALUES (?, ?, ?, ?, ?, NULL)
		ON CONFLICT(sid, seq, idx) DO UPDATE SET partial = excluded.partial, body = excluded.body, blob_id = NULL`,
		sid, seq, idx, partial, json)
	w.blocksInBatch = w.blocksInBatch || (err == nil && !partial)
	return err
}

// touch updates the listing of every session the batch wrote to: its count, times, owner
// and status, and, for one with messages the listing does not show yet, what listMessages
// sets, in the same statement.
func (w *writer) touch(sessions map[int64]*touched) error {
	now := time.Now().UnixMilli()
	for sid, t := range sessions {
		updated := now
		if t.updatedAt != 0 {
			updated = t.updatedAt
		}
		active := t.messages > 0 && !t.interrupted
		if _, err := w.c.Exec(`UPDATE sessions SET message_count = message_count + ?, updated_at = ?, owner = ?,
			status = CASE WHEN ? THEN 'active' ELSE status END,
			last_message_at = CASE WHEN ? THEN ? ELSE last_message_at END,
			archived_at = CASE WHEN ? THEN 0 ELSE archived_at END,
			is_open = CASE WHEN ? THEN 1 ELSE is_open END
			WHERE sid = ?`,
			t.messages, updated, w.owner, active, t.unlisted, t.lastMessageAt, t.unlisted, t.unlisted, sid); err != nil {
			return err
		}
	}
	return nil
}
