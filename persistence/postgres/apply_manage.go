package postgres

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// applyManagement applies an Op that changes what is known about a session rather than
// what it says; it leaves the session's place in the listing alone.
func (b *batchWriter) applyManagement(op session.ManagementOp) error {
	switch op := op.(type) {
	case session.AccessSession:
		return b.update(op.SessionID, `UPDATE sessions SET last_accessed_at = GREATEST(last_accessed_at, $1) WHERE sid = $2`, op.At.UnixMilli())
	case session.CloseSession:
		return b.update(op.SessionID, `UPDATE sessions SET last_accessed_at = GREATEST(last_accessed_at, $1),
			is_open = CASE WHEN owner = $2 THEN false ELSE is_open END,
			status = CASE WHEN $3 THEN 'interrupted' ELSE status END WHERE sid = $4`,
			op.At.UnixMilli(), b.w.owner, op.Interrupted)
	case session.RenameSession:
		return b.update(op.SessionID, `UPDATE sessions SET title = $1 WHERE sid = $2`, op.Title)
	case session.SetArchived:
		at := int64(0)
		if !op.At.IsZero() {
			at = op.At.UnixMilli()
		}
		return b.update(op.SessionID, `UPDATE sessions SET archived_at = $1 WHERE sid = $2`, at)
	case session.MarkCorrupted:
		return b.update(op.SessionID, `UPDATE sessions SET corruption = $1 WHERE sid = $2`, op.Reason)
	case session.DeleteSession:
		return b.deleteSession(op.SessionID)
	case session.MoveProject:
		_, err := b.exec(`UPDATE sessions SET project_path = $1 || substr(project_path, length($2) + 1)
			WHERE project_path = $2 OR substr(project_path, 1, length($2) + 1) IN ($2 || '/', $2 || '\')`, op.To, op.From)
		return err
	}
	return b.applyHosted(op)
}

// applyHosted applies the Ops of hosted agents: checkpoints, SDK session ids, history. A
// checkpoint never moves backwards: two workers committing pubsub ids out of order leave
// the greater (GREATEST ignores the NULL of a session without one).
func (b *batchWriter) applyHosted(op session.ManagementOp) error {
	switch op := op.(type) {
	case session.SetCheckpoint:
		return b.update(op.SessionID, `UPDATE sessions SET checkpoint = GREATEST(checkpoint, $1), seen_seq = GREATEST(seen_seq, $2),
			status = 'active' WHERE sid = $3`, op.Checkpoint, op.SeenSeq)
	case session.SetSDKSession:
		if !op.Seen {
			return b.update(op.SessionID, `UPDATE sessions SET sdk_session_id = $1 WHERE sid = $2`, op.SDKSessionID)
		}
		return b.update(op.SessionID, `UPDATE sessions SET sdk_session_id = $1, seen_seq = GREATEST(seen_seq, $2) WHERE sid = $3`,
			op.SDKSessionID, op.SeenSeq)
	case session.AddHistory:
		sid, err := b.sid(op.SessionID)
		if err != nil {
			return err
		}
		at := op.At.UnixMilli()
		if _, err := b.exec(`INSERT INTO history(sid, role, content, created_at) VALUES ($1, $2, $3, $4)`, sid, op.Role, op.Content, at); err != nil {
			return err
		}
		_, err = b.exec(`UPDATE sessions SET updated_at = GREATEST(updated_at, $1), status = 'active' WHERE sid = $2`, at, sid)
		return err
	case session.ClearHistory:
		return b.update(op.SessionID, `DELETE FROM history WHERE sid = $1`)
	}
	return fmt.Errorf("unknown op %T", op)
}

// update runs a statement on one session whose last argument is the session's key, after
// what the batch's messages made of its listing (settle).
func (b *batchWriter) update(id, query string, args ...any) error {
	sid, err := b.sid(id)
	if err != nil {
		return err
	}
	if err := b.settle(sid); err != nil {
		return err
	}
	_, err = b.exec(query, append(args, sid)...)
	return err
}

// deleteSession deletes a session's rows, and the snapshot blobs no other session shares.
func (b *batchWriter) deleteSession(id string) error {
	sid, err := b.sid(id)
	if err != nil {
		return err
	}
	var blobs []int64
	err = b.query(`SELECT DISTINCT f.blob_id FROM snapshot_files f JOIN file_snapshots s ON s.fsid = f.fsid
		WHERE s.sid = $1 AND f.blob_id IS NOT NULL`, []any{sid}, func(row []any) error {
		blobs = append(blobs, row[0].(int64))
		return nil
	})
	if err != nil {
		return err
	}
	for _, stmt := range []string{
		`DELETE FROM blocks WHERE sid = $1`,
		`DELETE FROM messages WHERE sid = $1`,
		`DELETE FROM tool_uses WHERE sid = $1`,
		`DELETE FROM history WHERE sid = $1`,
		`DELETE FROM snapshot_files WHERE fsid IN (SELECT fsid FROM file_snapshots WHERE sid = $1)`,
		`DELETE FROM file_snapshots WHERE sid = $1`,
		`DELETE FROM rewinds WHERE sid = $1`,
		`DELETE FROM summaries WHERE sid = $1`,
		`DELETE FROM compactions WHERE sid = $1`,
		`DELETE FROM context_states WHERE sid = $1`,
		`DELETE FROM sessions WHERE sid = $1`,
	} {
		if _, err := b.exec(stmt, sid); err != nil {
			return err
		}
	}
	for _, blob := range blobs {
		if _, err := b.exec(`DELETE FROM blobs WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM snapshot_files WHERE blob_id = $1)`, blob); err != nil {
			return err
		}
	}
	delete(b.w.sids, id)
	delete(b.sessions, sid)
	return nil
}
