package persistence

import (
	"database/sql/driver"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
)

// A fork copies the rows of the records it shares with its origin, inside the SQLite
// file, in one statement per table: the list of records crosses as a JSON array, and
// json_each numbers them, so record Seqs[i] of the origin becomes record i of the fork.
// Block bodies over BlobThreshold are blob ids and so are shared, not copied. The columns
// are named, so that a column a later migration derives from a session's rows (a
// pre-encoded body naming its session, running totals in seq order) is left to its default
// and derived afresh rather than copied wrong.
var forkCopies = []string{
	`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id,
			meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, is_sidechain, continues)
		SELECT ?2, j.key, r.uuid, r.parent_uuid, r.type, r.role, r.turn,
			CASE r.status WHEN 'streaming' THEN 'interrupted' ELSE r.status END, r.created_at, r.provider, r.request_id,
			r.meta, r.extra, r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_creation_tokens, r.is_sidechain, r.continues
		FROM json_each(?1) j JOIN messages r ON r.sid = ?3 AND r.seq = j.value ORDER BY j.key`,
	`INSERT INTO blocks(sid, seq, idx, partial, body, blob_id)
		SELECT ?2, j.key, r.idx, r.partial, r.body, r.blob_id
		FROM json_each(?1) j JOIN blocks r ON r.sid = ?3 AND r.seq = j.value ORDER BY j.key, r.idx`,
	`INSERT INTO tool_uses(sid, tool_use_id, seq)
		SELECT ?2, r.tool_use_id, j.key
		FROM json_each(?1) j JOIN tool_uses r ON r.sid = ?3 AND r.seq = j.value`,
}

// fork creates a forked session and copies into it the records, and the file snapshots of
// those records, it shares with its origin.
func (w *writer) fork(op session.ForkSession) error {
	from, err := w.sid(op.From)
	if err != nil {
		return err
	}
	if err := w.createSession(op.Info); err != nil {
		return err
	}
	to := w.sids[op.Info.ID]
	encoded, err := json.Marshal(op.Seqs)
	if err != nil {
		return err
	}
	seqs := string(encoded) // text: SQLite reads a BLOB given to json_each as JSONB
	for _, copy := range forkCopies {
		if _, err := w.c.exec(copy, seqs, to, from); err != nil {
			return err
		}
	}
	origin := op.Info.ForkedFrom
	t := op.Tracker
	_, err = w.c.exec(`UPDATE sessions SET forked_from = ?, forked_from_uuid = ?, message_count = ?,
			input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?, context_tokens = ?
		WHERE sid = ?`, origin.SessionID, origin.UUID, len(op.Seqs),
		t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens, to)
	if err != nil {
		return err
	}
	return w.copySnapshots(from, to, seqs)
}

// copySnapshots copies the file snapshots of session from taken at the records seqs into
// session to. Their contents are blobs, shared.
func (w *writer) copySnapshots(from, to int64, seqs string) error {
	var snapshots []int64
	err := w.c.query(`SELECT f.fsid FROM file_snapshots f
		WHERE f.sid = ?1 AND f.message_uuid IN (SELECT r.uuid FROM json_each(?2) j JOIN messages r ON r.sid = ?1 AND r.seq = j.value)
		ORDER BY f.fsid`, []any{from, seqs}, func(row []driver.Value) error {
		snapshots = append(snapshots, row[0].(int64))
		return nil
	})
	if err != nil {
		return err
	}
	for _, fsid := range snapshots {
		res, err := w.c.exec(`INSERT INTO file_snapshots(sid, id, message_uuid, root, is_update, created_at, extra)
			SELECT ?, id, message_uuid, root, is_update, created_at, extra FROM file_snapshots WHERE fsid = ?`, to, fsid)
		if err != nil {
			return err
		}
		copied, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := w.c.exec(`INSERT INTO snapshot_files(fsid, path, state, hash, size, mode, blob_id, extra)
			SELECT ?, path, state, hash, size, mode, blob_id, extra FROM snapshot_files WHERE fsid = ?`, copied, fsid); err != nil {
			return err
		}
	}
	return nil
}

// moveHead records a rewind of a session's head.
func (w *writer) moveHead(sid int64, op session.MoveHead) error {
	if _, err := w.c.exec(`INSERT INTO rewinds(sid, at_seq, uuid, created_at) VALUES (?, ?, ?, ?)`,
		sid, op.AtSeq, op.UUID, op.At.UnixMilli()); err != nil {
		return err
	}
	_, err := w.c.exec(`UPDATE sessions SET branched = 1 WHERE sid = ?`, sid)
	return err
}
