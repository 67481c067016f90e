package sqlite

import (
	"database/sql/driver"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// endMessage ends message op.Seq of session sid with its status, fields and usage, and
// stores its body: encoded from what the writer holds of it (openBodies) in the same UPDATE,
// or else read back from its rows (writeBody).
func (w *writer) endMessage(sid int64, op session.EndMessage) error {
	u := op.Usage
	m, holes, ok := w.open.end(sid, op)
	if ok {
		body, lay := w.bodies.build(&m, holes)
		_, err := w.c.exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
			input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?, body = ?, layout = ?
			WHERE sid = ? AND seq = ?`,
			op.Status, m.Meta, m.Extra, u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens,
			body, lay, sid, op.Seq)
		return err
	}
	_, err := w.c.exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
		input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?
		WHERE sid = ? AND seq = ?`,
		op.Status, jsonObject(op.Meta), jsonObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, sid, op.Seq)
	if err != nil {
		return err
	}
	return w.writeBody(sid, op.Seq)
}

// writeBody encodes the body of message seq of session sid, which has just ended, from its
// row and its block rows, and stores it beside them. The block rows stay: search, forks,
// deletes and the stores' other readers use them. A record that is not a message, or one
// whose blocks are incomplete (a gap, a partial block), gets no body and is read from its
// rows.
func (w *writer) writeBody(sid, seq int64) error {
	var m session.StoredMessage
	found := false
	err := w.c.query(`SELECT m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.status, m.created_at, m.provider,
			m.request_id, m.meta, m.extra, m.is_sidechain, m.continues, s.id
		FROM messages m JOIN sessions s ON s.sid = m.sid WHERE m.sid = ? AND m.seq = ?`, []any{sid, seq}, func(row []driver.Value) error {
		d := rowDecoder{row: row}
		m = session.StoredMessage{Seq: seq, UUID: d.Text(0, "uuid"), ParentUUID: d.Text(1, "parent_uuid"),
			Type: d.Text(2, "type"), Role: d.Text(3, "role"), Turn: d.Integer(4, "turn"), Status: d.Text(5, "status"),
			CreatedAt: time.UnixMilli(d.Integer(6, "created_at")), Provider: d.Text(7, "provider"),
			RequestID: d.Text(8, "request_id"), Meta: asBytes(row[9]), Extra: asBytes(row[10]),
			IsSidechain: d.Integer(11, "is_sidechain") != 0, Continues: d.Integer(12, "continues") != 0,
			SessionID: d.Text(13, "id")}
		found = len(d.bad) == 0
		return nil
	})
	if err != nil || !found || m.Role == "" {
		return err
	}
	var holes []int64
	complete := true
	err = w.c.query(`SELECT idx, partial, body, blob_id FROM blocks WHERE sid = ? AND seq = ? ORDER BY idx`, []any{sid, seq},
		func(row []driver.Value) error {
			idx, _ := row[0].(int64)
			partial, _ := row[1].(int64)
			blob, _ := row[3].(int64)
			body := asBytes(row[2])
			if idx != int64(len(m.Blocks)) || partial != 0 || (body == nil && blob == 0) {
				complete = false
			}
			m.Blocks = append(m.Blocks, jsonenc.AppendASCII(nil, body))
			holes = append(holes, blob)
			return nil
		})
	if err != nil || !complete {
		return err
	}
	body, lay := w.bodies.build(&m, holes)
	_, err = w.c.exec(`UPDATE messages SET body = ?, layout = ? WHERE sid = ? AND seq = ?`, body, lay, sid, seq)
	return err
}
