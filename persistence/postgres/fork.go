package postgres

import (
	"bytes"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// forkCopies copy the rows of the records a fork shares with its origin, one statement per
// table, inside the database: $3 is the origin seqs in fork order (record $3[i] becomes
// record i-1, unnest's ordinality counting from 1). The columns are named, so that what a
// session's rows derive (running token totals) is derived afresh rather than copied wrong.
var forkCopies = []string{
	// $1 is the origin, $2 the fork.
	`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id,
			meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, is_sidechain, continues,
			body, layout, search_text, search)
		SELECT $2, f.new - 1, r.uuid, r.parent_uuid, r.type, r.role, r.turn,
			CASE r.status WHEN 'streaming' THEN 'interrupted' ELSE r.status END, r.created_at, r.provider, r.request_id,
			r.meta, r.extra, r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_creation_tokens, r.is_sidechain, r.continues,
			r.body, r.layout, r.search_text, r.search
		FROM unnest($3::bigint[]) WITH ORDINALITY f(old, new) JOIN messages r ON r.sid = $1 AND r.seq = f.old ORDER BY f.new`,
	// A copied message keeps its search vector, or waits to be indexed as its origin does;
	// one without a body, its block rows.
	`INSERT INTO blocks(sid, seq, idx, partial, body)
		SELECT $2, f.new - 1, r.idx, r.partial, r.body
		FROM unnest($3::bigint[]) WITH ORDINALITY f(old, new) JOIN blocks r ON r.sid = $1 AND r.seq = f.old ORDER BY f.new, r.idx`,
	`INSERT INTO tool_uses(sid, tool_use_id, seq)
		SELECT $2, r.tool_use_id, f.new - 1 FROM unnest($3::bigint[]) WITH ORDINALITY f(old, new)
		JOIN tool_uses r ON r.sid = $1 AND r.seq = f.old ON CONFLICT DO NOTHING`,
	// The file snapshots taken at the copied records, their contents shared blobs.
	`WITH copied AS (
		INSERT INTO file_snapshots(sid, id, message_uuid, root, is_update, created_at, extra)
		SELECT $2, s.id, s.message_uuid, s.root, s.is_update, s.created_at, s.extra FROM file_snapshots s
		WHERE s.sid = $1 AND s.message_uuid IN (SELECT r.uuid FROM messages r WHERE r.sid = $1 AND r.seq = ANY($3::bigint[]))
		ORDER BY s.fsid
		RETURNING fsid, id)
	INSERT INTO snapshot_files(fsid, path, state, hash, size, mode, blob_id, extra)
		SELECT c.fsid, f.path, f.state, f.hash, f.size, f.mode, f.blob_id, f.extra
		FROM copied c JOIN file_snapshots s ON s.sid = $1 AND s.id = c.id JOIN snapshot_files f ON f.fsid = s.fsid`,
}

// fork creates a forked session and copies into it the records, and the file snapshots of
// those records, it shares with its origin.
func (b *batchWriter) fork(op session.ForkSession) error {
	from, err := b.sid(op.From)
	if err != nil {
		return err
	}
	if _, err := b.createSession(op.Info); err != nil {
		return err
	}
	to, ok := b.w.sids[op.Info.ID]
	if !ok {
		return errConflict
	}
	b.searchable = true // the copied messages may be waiting to be indexed
	for _, copy := range forkCopies {
		if _, err := b.exec(copy, from, to, op.Seqs); err != nil {
			return err
		}
	}
	// The copies are judged by the server, and so is what the batch adds to the fork after them.
	b.noteUnknown(to)
	if err := b.queue(nil, markBranchedSQL, to, 0); err != nil {
		return err
	}
	if err := b.renameForkBodies(to, op.From, op.Info.ID); err != nil {
		return err
	}
	origin := op.Info.ForkedFrom
	t := op.Tracker
	_, err = b.exec(`UPDATE sessions SET forked_from = $1, forked_from_uuid = $2, message_count = $3,
			input_tokens = $4, output_tokens = $5, cache_read_tokens = $6, cache_creation_tokens = $7, context_tokens = $8,
			tool_count = (SELECT count(*) FROM tool_uses WHERE sid = $9),
			last_message_at = coalesce((SELECT created_at FROM messages WHERE sid = $9 ORDER BY seq DESC LIMIT 1), 0)
		WHERE sid = $9`, origin.SessionID, origin.UUID, len(op.Seqs),
		t.InputTokens, t.OutputTokens, t.CacheReadInputTokens, t.CacheCreationInputTokens, t.ContextTokens, to)
	return err
}

// renameForkBodies gives the bodies a fork copied the fork's id as their sessionId
// (msgbody.Renamed), each kept in its stored form: one statement reads them, one stores them.
func (b *batchWriter) renameForkBodies(sid int64, from, to string) error {
	oldField, newField := msgbody.SessionIDField(from), msgbody.SessionIDField(to)
	var seqs []int64
	var bodies, layouts [][]byte
	err := b.query(`SELECT seq, body, layout FROM messages WHERE sid = $1 AND body IS NOT NULL`, []any{sid}, func(row []any) error {
		seq, stored := row[0].(int64), row[1].([]byte)
		plain, err := msgbody.Unpacked(nil, stored, seq)
		if err != nil {
			return err
		}
		renamed, layout, err := msgbody.Renamed(plain, row[2].([]byte), oldField, newField)
		if err != nil {
			return msgbody.Unreadable(seq)
		}
		seqs, layouts = append(seqs, seq), append(layouts, layout)
		bodies = append(bodies, bytes.Clone(b.w.bodies.StoredLike(renamed, stored)))
		return nil
	})
	if err != nil || len(seqs) == 0 {
		return err
	}
	_, err = b.exec(`UPDATE messages m SET body = f.body, layout = f.layout
		FROM unnest($2::bigint[], $3::bytea[], $4::bytea[]) AS f(seq, body, layout) WHERE m.sid = $1 AND m.seq = f.seq`,
		sid, seqs, bodies, layouts)
	return err
}
