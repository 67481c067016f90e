package sqlite

import (
	"database/sql/driver"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/rowvalue"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// beginMessage inserts the row of a message that begins, streaming. One that ends in the
// same batch (endingInBatch) is only held in memory: endMessage inserts its row whole, so
// it is written once.
func (w *writer) beginMessage(sid int64, op session.BeginMessage) error {
	unwritten := w.ending[batchMessage{op.SessionID, op.Header.Seq}]
	if !unwritten {
		h := op.Header
		if err := w.insertMessage(sid, h, session.MessageStreaming, msgbody.JSONObject(h.Meta), msgbody.JSONObject(h.Extra), session.Usage{}, nil, nil); err != nil {
			return err
		}
	}
	w.open.Begin(sid, op, unwritten)
	return nil
}

// insertMessage inserts the row of message h of session sid; body and lay are nil for one
// that has no body yet.
func (w *writer) insertMessage(sid int64, h session.MessageHeader, status string, meta, extra []byte, u session.Usage, body, lay []byte) error {
	res, err := w.c.Exec(`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider, request_id,
			is_sidechain, continues, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, body, layout)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sid, h.Seq, h.UUID, h.ParentUUID, h.Type, h.Role, h.Turn, status, h.CreatedAt.UnixMilli(), h.Provider, h.RequestID,
		h.IsSidechain, h.Continues, meta, extra, u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens,
		body, lay)
	if err != nil {
		return err
	}
	mid, err := res.LastInsertId()
	if err != nil {
		return err
	}
	w.inserted.noteInsert(sid, mid, h, body != nil)
	return nil
}

// insertEnded inserts, with one INSERT, the row of record h, which began in the batch being
// applied and ends with op, with its stored columns c.
func (w *writer) insertEnded(sid int64, h session.MessageHeader, op session.EndMessage, c msgbody.Columns) error {
	if c.Body != nil {
		w.blocksInBatch = true
	}
	return w.insertMessage(sid, h, op.Status, c.Meta, c.Extra, op.Usage, c.Body, c.Layout)
}

// endMessage ends message op.Seq of session sid with its status, fields and usage, and
// stores its body: as the importing goroutine prepared it (msgbody.PrepareImported), or
// encoded from what the writer holds of it (msgbody.OpenBodies), with the INSERT or UPDATE
// that ends the message, or else read back from its rows (writeBody). The body is then the
// message's one record: the block rows that journaled it while it streamed are deleted.
func (w *writer) endMessage(sid int64, op session.EndMessage) error {
	u := op.Usage
	b := w.open.Take(sid, op.Seq)
	if p := msgbody.Prepared(op); p != nil && b != nil && b.Unwritten {
		return w.insertEnded(sid, b.Header, op, *p)
	}
	if b != nil {
		if m, ok := b.Message(op); ok {
			c := msgbody.MessageColumns(&w.bodies, &m, op.Imported)
			if b.Unwritten {
				return w.insertEnded(sid, b.Header, op, c)
			}
			w.blocksInBatch = true
			_, err := w.c.Exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
				input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?, body = ?, layout = ?
				WHERE sid = ? AND seq = ?`,
				op.Status, c.Meta, c.Extra, u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens,
				c.Body, c.Layout, sid, op.Seq)
			if err != nil || !b.Journaled {
				return err
			}
			return w.dropJournal(sid, op.Seq)
		}
		if b.IsWholeRecord() {
			return w.insertEnded(sid, b.Header, op, msgbody.WholeRecordColumns(op))
		}
		if b.Unwritten {
			// Not a whole message: it is stored as one that streamed, its row and block rows.
			if err := w.writeUnwritten(sid, b); err != nil {
				return err
			}
		}
	}
	_, err := w.c.Exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
		input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?
		WHERE sid = ? AND seq = ?`,
		op.Status, msgbody.JSONObject(op.Meta), msgbody.JSONObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, sid, op.Seq)
	if err != nil {
		return err
	}
	return w.writeBody(sid, op.Seq)
}

// writeUnwritten inserts the streaming row and the block rows of a message held only in
// memory that does not end whole (a record that is not a message, a block left partial).
func (w *writer) writeUnwritten(sid int64, b *msgbody.OpenBody) error {
	h := b.Header
	if err := w.insertMessage(sid, h, session.MessageStreaming, msgbody.JSONObject(h.Meta), msgbody.JSONObject(h.Extra), session.Usage{}, nil, nil); err != nil {
		return err
	}
	for i, block := range b.Blocks {
		if block == nil {
			continue
		}
		if err := w.journalBlock(sid, h.Seq, i, b.Partial[i], block); err != nil {
			return err
		}
	}
	return nil
}

// dropJournal deletes the block rows of message seq of session sid, whose body now holds
// them. The search triggers take any block already indexed out of the block index.
func (w *writer) dropJournal(sid, seq int64) error {
	_, err := w.c.Exec(`DELETE FROM blocks WHERE sid = ? AND seq = ?`, sid, seq)
	return err
}

// writeBody encodes the body of message seq of session sid, which has just ended, from its
// row and its block rows, stores it (packed as a live body is, over bodycodec.LivePackAbove) and
// drops the rows. A record that is not a message, or one whose blocks are incomplete (a
// gap, a partial block), gets no body and keeps its rows, which readers read it from.
func (w *writer) writeBody(sid, seq int64) error {
	var m session.StoredMessage
	found := false
	err := w.c.Query(`SELECT m.uuid, m.parent_uuid, m.type, m.role, m.turn, m.status, m.created_at, m.provider,
			m.request_id, m.meta, m.extra, m.is_sidechain, m.continues, s.id
		FROM messages m JOIN sessions s ON s.sid = m.sid WHERE m.sid = ? AND m.seq = ?`, []any{sid, seq}, func(row []driver.Value) error {
		d := rowDecoder{row: row}
		m = session.StoredMessage{Seq: seq, UUID: d.Text(0, "uuid"), ParentUUID: d.Text(1, "parent_uuid"),
			Type: d.Text(2, "type"), Role: d.Text(3, "role"), Turn: d.Integer(4, "turn"), Status: d.Text(5, "status"),
			CreatedAt: time.UnixMilli(d.Integer(6, "created_at")), Provider: d.Text(7, "provider"),
			RequestID: d.Text(8, "request_id"), Meta: rowvalue.Bytes(row[9]), Extra: rowvalue.Bytes(row[10]),
			IsSidechain: d.Integer(11, "is_sidechain") != 0, Continues: d.Integer(12, "continues") != 0,
			SessionID: d.Text(13, "id")}
		found = len(d.bad) == 0
		return nil
	})
	if err != nil || !found || m.Role == "" {
		return err
	}
	complete := true
	// Rows journaled before migration 10 may hold a large block as a blob.
	err = w.c.Query(`SELECT b.idx, b.partial, coalesce(b.body, bl.data) FROM blocks b LEFT JOIN blobs bl ON bl.id = b.blob_id
		WHERE b.sid = ? AND b.seq = ? ORDER BY b.idx`, []any{sid, seq},
		func(row []driver.Value) error {
			idx, _ := row[0].(int64)
			partial, _ := row[1].(int64)
			body := rowvalue.Bytes(row[2])
			if idx != int64(len(m.Blocks)) || partial != 0 || body == nil {
				complete = false
			}
			m.Blocks = append(m.Blocks, jsonenc.AppendASCII(nil, body))
			return nil
		})
	if err != nil || !complete {
		return err
	}
	body, lay, l := w.bodies.Build(&m, false)
	if _, err = w.c.Exec(`UPDATE messages SET body = ?, layout = ?, extra = ? WHERE sid = ? AND seq = ?`,
		body, lay, msgbody.StoredExtra(m.Extra, w.bodies.Plain(), l), sid, seq); err != nil {
		return err
	}
	w.blocksInBatch = true
	return w.dropJournal(sid, seq)
}
