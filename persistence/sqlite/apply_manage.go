package sqlite

import (
	"database/sql/driver"
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// applyManagement applies an Op that changes what is known about a session rather than
// what it says; it leaves the session's place in the listing alone.
func (w *writer) applyManagement(op session.ManagementOp) error {
	w.forgetSession(op)
	switch op := op.(type) {
	case session.AccessSession:
		return w.update(op.SessionID, `UPDATE sessions SET last_accessed_at = max(last_accessed_at, ?) WHERE sid = ?`, op.At.UnixMilli())
	case session.CloseSession:
		return w.update(op.SessionID, `UPDATE sessions SET last_accessed_at = max(last_accessed_at, ?),
			is_open = CASE WHEN owner = ? THEN 0 ELSE is_open END,
			status = CASE WHEN ? THEN 'interrupted' ELSE status END WHERE sid = ?`,
			op.At.UnixMilli(), w.owner, op.Interrupted)
	case session.RenameSession:
		return w.update(op.SessionID, `UPDATE sessions SET title = ? WHERE sid = ?`, op.Title)
	case session.SetArchived:
		at := int64(0)
		if !op.At.IsZero() {
			at = op.At.UnixMilli()
		}
		return w.update(op.SessionID, `UPDATE sessions SET archived_at = ? WHERE sid = ?`, at)
	case session.MarkCorrupted:
		return w.update(op.SessionID, `UPDATE sessions SET corruption = ? WHERE sid = ?`, op.Reason)
	case session.DeleteSession:
		return w.deleteSession(op.SessionID)
	case session.MoveProject:
		return w.moveProject(op.From, op.To)
	}
	return w.applyHosted(op)
}

// forgetSession drops what the writer holds of messages of a session that closes or is
// deleted, open bodies and refused messages: they will not end in this process.
func (w *writer) forgetSession(op session.ManagementOp) {
	var id string
	switch op := op.(type) {
	case session.CloseSession:
		id = op.SessionID
	case session.DeleteSession:
		id = op.SessionID
	default:
		return
	}
	if sid, ok := w.sids[id]; ok {
		w.open.Forget(sid)
		w.refused.forgetSession(sid)
	}
}

// applyHosted applies the Ops of hosted agents: checkpoints, SDK session ids, history.
func (w *writer) applyHosted(op session.ManagementOp) error {
	switch op := op.(type) {
	case session.SetCheckpoint:
		return w.update(op.SessionID, `UPDATE sessions SET checkpoint = ?, seen_seq = max(seen_seq, ?), status = 'active' WHERE sid = ?`,
			op.Checkpoint, op.SeenSeq)
	case session.SetSDKSession:
		if !op.Seen {
			return w.update(op.SessionID, `UPDATE sessions SET sdk_session_id = ? WHERE sid = ?`, op.SDKSessionID)
		}
		return w.update(op.SessionID, `UPDATE sessions SET sdk_session_id = ?, seen_seq = max(seen_seq, ?) WHERE sid = ?`,
			op.SDKSessionID, op.SeenSeq)
	case session.AddHistory:
		sid, err := w.sid(op.SessionID)
		if err != nil {
			return err
		}
		at := op.At.UnixMilli()
		if _, err := w.c.Exec(`INSERT INTO history(sid, role, content, created_at) VALUES (?, ?, ?, ?)`, sid, op.Role, op.Content, at); err != nil {
			return err
		}
		_, err = w.c.Exec(`UPDATE sessions SET updated_at = max(updated_at, ?), status = 'active' WHERE sid = ?`, at, sid)
		return err
	case session.ClearHistory:
		return w.update(op.SessionID, `DELETE FROM history WHERE sid = ?`)
	}
	return fmt.Errorf("unknown op %T", op)
}

// update runs a statement on one session whose last argument is the session's key.
func (w *writer) update(id, query string, args ...any) error {
	sid, err := w.sid(id)
	if err != nil {
		return err
	}
	_, err = w.c.Exec(query, append(args, sid)...)
	return err
}

// deleteSession deletes a session's rows (its file snapshots and rewinds with them), and
// the blobs no block or snapshot of another session shares. Blocks go first, while their
// blobs are still there for the search index's delete triggers.
func (w *writer) deleteSession(id string) error {
	sid, err := w.sid(id)
	if err != nil {
		return err
	}
	if err := w.settleInserts(); err != nil { // rows this batch inserted are queued before they go
		return err
	}
	var blobs []int64
	err = w.c.Query(`SELECT blob_id FROM blocks WHERE sid = ?1 AND blob_id IS NOT NULL
		UNION SELECT f.blob_id FROM snapshot_files f JOIN file_snapshots s ON s.fsid = f.fsid WHERE s.sid = ?1 AND f.blob_id IS NOT NULL`,
		[]any{sid}, func(row []driver.Value) error {
			blobs = append(blobs, row[0].(int64))
			return nil
		})
	if err != nil {
		return err
	}
	for _, stmt := range []string{
		`DELETE FROM blocks WHERE sid = ?`,
		`DELETE FROM messages WHERE sid = ?`,
		`DELETE FROM tool_uses WHERE sid = ?`,
		`DELETE FROM history WHERE sid = ?`,
		`DELETE FROM snapshot_files WHERE fsid IN (SELECT fsid FROM file_snapshots WHERE sid = ?)`,
		`DELETE FROM file_snapshots WHERE sid = ?`,
		`DELETE FROM rewinds WHERE sid = ?`,
		`DELETE FROM summaries WHERE sid = ?`,
		`DELETE FROM compactions WHERE sid = ?`,
		`DELETE FROM context_states WHERE sid = ?`,
		`DELETE FROM sessions WHERE sid = ?`,
	} {
		if _, err := w.c.Exec(stmt, sid); err != nil {
			return err
		}
	}
	for _, blob := range blobs {
		if _, err := w.c.Exec(`DELETE FROM blobs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM blocks WHERE blob_id = ?1)
			AND NOT EXISTS (SELECT 1 FROM snapshot_files WHERE blob_id = ?1)`, blob); err != nil {
			return err
		}
	}
	delete(w.sids, id)
	return nil
}

// moveProject moves the sessions of project from, and of the folders inside it, to to.
func (w *writer) moveProject(from, to string) error {
	_, err := w.c.Exec(`UPDATE sessions SET project_path = ?1 || substr(project_path, length(?2) + 1)
		WHERE project_path = ?2 OR substr(project_path, 1, length(?2) + 1) IN (?2 || '/', ?2 || '\')`, to, from)
	return err
}

// nullable is s, or NULL when s is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
