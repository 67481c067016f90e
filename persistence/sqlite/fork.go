package sqlite

import (
	"database/sql/driver"

	"github.com/goccy/go-json"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// A fork copies the rows of the records it shares with its origin inside the SQLite file,
// one statement per table, their bodies, which name their session, renamed in the copy (or
// by copyForkBodies). The records cross as a JSON array into a temporary table that maps each origin seq to its
// seq in the fork (record Seqs[i] becomes record i), so every copy is an index lookup per
// row. Block rows journaled before migration 10 may hold a large block as a blob id, which
// is shared, not copied. The columns are named, so that a column a later migration
// derives from a session's rows (running totals in seq order) is left to its default and
// derived afresh rather than copied wrong.
var forkCopies = []string{
	// ?1 is the origin, ?2 the fork; ?3 and ?4 the sessionId fields of their bodies, which
	// the copy swaps in SQL when they are the same length (ids are UUIDs), so the layout
	// holds as it is, and the body is plain (starts with '{'; a packed one starts with a byte
	// no JSON starts with, persistence/bodycodec, and is never edited as text); copyForkBodies does
	// the others.
	`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id,
			meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, is_sidechain, continues, body, layout)
		SELECT ?2, f.new, r.uuid, r.parent_uuid, r.type, r.role, r.turn,
			CASE r.status WHEN 'streaming' THEN 'interrupted' ELSE r.status END, r.created_at, r.provider, r.request_id,
			r.meta, r.extra, r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_creation_tokens, r.is_sidechain, r.continues,
			CASE WHEN length(?3) = length(?4) AND substr(r.body, 1, 1) = x'7B' AND instr(r.body, ?3) > 0 THEN
				CAST(substr(r.body, 1, instr(r.body, ?3) - 1) || ?4 || substr(r.body, instr(r.body, ?3) + length(?3)) AS BLOB) END,
			CASE WHEN length(?3) = length(?4) AND substr(r.body, 1, 1) = x'7B' AND instr(r.body, ?3) > 0 THEN r.layout END
		FROM temp.fork_seqs f CROSS JOIN messages r ON r.sid = ?1 AND r.seq = f.old ORDER BY f.new`,
	`INSERT INTO blocks(sid, seq, idx, partial, body, blob_id)
		SELECT ?2, f.new, r.idx, r.partial, r.body, r.blob_id
		FROM temp.fork_seqs f CROSS JOIN blocks r ON r.sid = ?1 AND r.seq = f.old ORDER BY f.new, r.idx`,
	`INSERT INTO tool_uses(sid, tool_use_id, seq)
		SELECT ?2, r.tool_use_id, f.new FROM tool_uses r JOIN temp.fork_seqs f ON f.old = r.seq WHERE r.sid = ?1`,
}

// mapForkSeqs fills the temporary table that maps the seqs of the records a fork copies to
// their seqs in the fork.
func (w *writer) mapForkSeqs(seqs []int64) error {
	encoded, err := json.Marshal(seqs)
	if err != nil {
		return err
	}
	if _, err := w.c.Exec(`CREATE TEMP TABLE IF NOT EXISTS fork_seqs (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)`); err != nil {
		return err
	}
	if _, err := w.c.Exec(`DELETE FROM temp.fork_seqs`); err != nil {
		return err
	}
	// The seqs go as text: SQLite reads a BLOB given to json_each as JSONB.
	_, err = w.c.Exec(`INSERT INTO temp.fork_seqs(old, new) SELECT value, key FROM json_each(?)`, string(encoded))
	return err
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
	w.blocksInBatch = true
	if err := w.mapForkSeqs(op.Seqs); err != nil {
		return err
	}
	oldField, newField := msgbody.SessionIDField(op.From), msgbody.SessionIDField(op.Info.ID)
	for _, copy := range forkCopies {
		if _, err := w.c.Exec(copy, from, to, oldField, newField); err != nil {
			return err
		}
	}
	// What the copied rows owe, as rows the writer inserts do (insert_effects.go); a body
	// copied later by copyForkBodies is queued by the UPDATE trigger.
	if _, err := w.c.Exec(`INSERT OR IGNORE INTO body_pending(mid) SELECT mid FROM messages WHERE sid = ? AND body IS NOT NULL`, to); err != nil {
		return err
	}
	if err := w.checkBranched(to, -1); err != nil {
		return err
	}
	if err := w.copyForkBodies(from, to, oldField, newField); err != nil {
		return err
	}
	if err := refreshListing(w.c, to); err != nil {
		return err
	}
	origin := op.Info.ForkedFrom
	t := op.Tracker
	_, err = w.c.Exec(`UPDATE sessions SET forked_from = ?, forked_from_uuid = ?, message_count = ?,
			input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?, context_tokens = ?
		WHERE sid = ?`, origin.SessionID, origin.UUID, len(op.Seqs),
		t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens, to)
	if err != nil {
		return err
	}
	return w.copySnapshots(from, to)
}

// copySnapshots copies the file snapshots of session from taken at the records the fork
// copies into session to. Their contents are blobs, shared.
func (w *writer) copySnapshots(from, to int64) error {
	var snapshots []int64
	err := w.c.Query(`SELECT s.fsid FROM file_snapshots s WHERE s.sid = ?1 AND s.message_uuid IN
			(SELECT r.uuid FROM temp.fork_seqs f CROSS JOIN messages r ON r.sid = ?1 AND r.seq = f.old)
		ORDER BY s.fsid`, []any{from}, func(row []driver.Value) error {
		snapshots = append(snapshots, row[0].(int64))
		return nil
	})
	if err != nil {
		return err
	}
	for _, fsid := range snapshots {
		res, err := w.c.Exec(`INSERT INTO file_snapshots(sid, id, message_uuid, root, is_update, created_at, extra)
			SELECT ?, id, message_uuid, root, is_update, created_at, extra FROM file_snapshots WHERE fsid = ?`, to, fsid)
		if err != nil {
			return err
		}
		copied, err := res.LastInsertId()
		if err != nil {
			return err
		}
		if _, err := w.c.Exec(`INSERT INTO snapshot_files(fsid, path, state, hash, size, mode, blob_id, extra)
			SELECT ?, path, state, hash, size, mode, blob_id, extra FROM snapshot_files WHERE fsid = ?`, copied, fsid); err != nil {
			return err
		}
	}
	return nil
}

// moveHead records a rewind of a session's head.
func (w *writer) moveHead(sid int64, op session.MoveHead) error {
	if _, err := w.c.Exec(`INSERT INTO rewinds(sid, at_seq, uuid, created_at) VALUES (?, ?, ?, ?)`,
		sid, op.AtSeq, op.UUID, op.At.UnixMilli()); err != nil {
		return err
	}
	_, err := w.c.Exec(`UPDATE sessions SET branched = 1 WHERE sid = ?`, sid)
	return err
}
