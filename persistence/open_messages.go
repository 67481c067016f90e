package persistence

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/session"
)

// msgKey names a message in the database.
type msgKey struct {
	sid, seq int64
}

// openMessage is a message the writer has begun and not yet ended. The writer keeps its
// blocks, ASCII encoded, to write its body when it ends; until then its blocks are rows of
// the blocks table, so that each completed block is durable on its own.
type openMessage struct {
	sid    int64
	hdr    session.MessageHeader
	blocks [][]byte
	stored bool                // its row is committed
	dirty  map[int]bool        // blocks this batch changed, by index, with whether partial
	end    *session.EndMessage // set when the batch ends it
	queued bool                // already in the batch's list
}

// touch adds m to the messages the batch writes.
func (b *batch) touch(m *openMessage) {
	if !m.queued {
		m.queued = true
		b.messages = append(b.messages, m)
	}
}

// putBlock records a block of an open message, in ASCII (see session.AppendASCII), and
// indexes a tool_use by its id at once so tool results can be matched.
func (w *writer) putBlock(sid int64, op session.PutBlock, b *batch) error {
	m := w.open[msgKey{sid, op.Seq}]
	if m == nil {
		return w.putLooseBlock(sid, op)
	}
	for len(m.blocks) <= op.Index {
		m.blocks = append(m.blocks, nil)
	}
	m.blocks[op.Index] = session.AppendASCII(nil, op.JSON)
	if m.dirty == nil {
		m.dirty = map[int]bool{}
	}
	m.dirty[op.Index] = op.Partial
	b.touch(m)
	if op.ToolUseID == "" {
		return nil
	}
	_, err := w.c.exec(`INSERT OR IGNORE INTO tool_uses(sid, tool_use_id, seq) VALUES (?, ?, ?)`, sid, op.ToolUseID, op.Seq)
	return err
}

// endMessage marks an open message ended; its body is written with the batch.
func (w *writer) endMessage(sid int64, op session.EndMessage, b *batch) error {
	m := w.open[msgKey{sid, op.Seq}]
	if m == nil {
		return w.endLooseMessage(sid, op)
	}
	m.end = &op
	b.touch(m)
	return nil
}

// writeMessage writes what the batch changed of m: a message that ended as one row with
// its body (and its large blocks as blobs), one still open as its row and the blocks that
// changed.
func (w *writer) writeMessage(m *openMessage) error {
	if m.end != nil {
		return w.writeEnded(m)
	}
	if !m.stored {
		if err := w.insertMessage(m, nil, nil); err != nil {
			return err
		}
	}
	for i, partial := range m.dirty {
		if err := w.upsertBlock(m.sid, m.hdr.Seq, i, m.blocks[i], partial); err != nil {
			return err
		}
	}
	return nil
}

// writeEnded writes an ended message's body. Its earlier block rows are replaced by it, but
// for the large blocks, which point at their blobs.
func (w *writer) writeEnded(m *openMessage) error {
	e := m.end
	stored := session.StoredMessage{
		UUID: m.hdr.UUID, ParentUUID: m.hdr.ParentUUID, SessionID: "", Type: m.hdr.Type, Role: m.hdr.Role,
		Turn: m.hdr.Turn, Status: e.Status, CreatedAt: m.hdr.CreatedAt, Provider: m.hdr.Provider,
		RequestID: m.hdr.RequestID, Meta: jsonObject(e.Meta), Extra: e.Extra, Blocks: m.blocks,
	}
	for i, block := range m.blocks {
		if block == nil {
			return fmt.Errorf("message %d ended without its block %d", m.hdr.Seq, i)
		}
	}
	stored.SessionID = w.ids[m.sid]
	body, lay, err := w.bodies.build(&stored, func(idx int) (int64, error) {
		id, err := putBlob(w.c, m.blocks[idx])
		if err == nil {
			_, err = w.c.exec(`INSERT INTO blocks(sid, seq, idx, partial, body, blob_id) VALUES (?, ?, ?, 0, NULL, ?)
				ON CONFLICT(sid, seq, idx) DO UPDATE SET partial = 0, body = NULL, blob_id = excluded.blob_id`,
				m.sid, m.hdr.Seq, idx, id)
		}
		return id, err
	})
	if err != nil {
		return err
	}
	if !m.stored {
		return w.insertMessage(m, body, lay)
	}
	if _, err := w.c.exec(`DELETE FROM blocks WHERE sid = ? AND seq = ? AND blob_id IS NULL`, m.sid, m.hdr.Seq); err != nil {
		return err
	}
	u := e.Usage
	_, err = w.c.exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
		input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?, body = ?, layout = ?
		WHERE sid = ? AND seq = ?`,
		e.Status, jsonObject(e.Meta), jsonObject(e.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens,
		u.CacheCreationInputTokens, body, lay, m.sid, m.hdr.Seq)
	return err
}

// insertMessage inserts m's row: streaming without a body, else as it ended.
func (w *writer) insertMessage(m *openMessage, body, lay []byte) error {
	h := m.hdr
	status, meta, extra, u := session.MessageStreaming, h.Meta, []byte(nil), session.Usage{}
	if e := m.end; e != nil {
		status, meta, extra, u = e.Status, e.Meta, e.Extra, e.Usage
	}
	_, err := w.c.exec(`INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider,
			request_id, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens, body, layout)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.sid, h.Seq, h.UUID, h.ParentUUID, h.Type, h.Role, h.Turn, status, h.CreatedAt.UnixMilli(), h.Provider,
		h.RequestID, jsonObject(meta), jsonObject(extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens,
		u.CacheCreationInputTokens, body, lay)
	return err
}

// upsertBlock stores a block of a message still open, or replaces an earlier checkpoint of
// it. A large complete block goes to the blob table; checkpoints stay inline since they are
// replaced soon.
func (w *writer) upsertBlock(sid, seq int64, idx int, json []byte, partial bool) error {
	body, blobID := any(json), any(nil)
	if !partial && len(json) > BlobThreshold {
		id, err := putBlob(w.c, json)
		if err != nil {
			return err
		}
		body, blobID = nil, id
	}
	_, err := w.c.exec(`INSERT INTO blocks(sid, seq, idx, partial, body, blob_id) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(sid, seq, idx) DO UPDATE SET partial = excluded.partial, body = excluded.body, blob_id = excluded.blob_id`,
		sid, seq, idx, partial, body, blobID)
	return err
}

// putLooseBlock stores a block of a message this writer did not begin: one more block row.
func (w *writer) putLooseBlock(sid int64, op session.PutBlock) error {
	if err := w.upsertBlock(sid, op.Seq, op.Index, session.AppendASCII(nil, op.JSON), op.Partial); err != nil || op.ToolUseID == "" {
		return err
	}
	_, err := w.c.exec(`INSERT OR IGNORE INTO tool_uses(sid, tool_use_id, seq) VALUES (?, ?, ?)`, sid, op.ToolUseID, op.Seq)
	return err
}

// endLooseMessage ends a message this writer did not begin; it keeps its block rows.
func (w *writer) endLooseMessage(sid int64, op session.EndMessage) error {
	u := op.Usage
	_, err := w.c.exec(`UPDATE messages SET status = ?, meta = ?, extra = ?,
		input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_creation_tokens = ?
		WHERE sid = ? AND seq = ?`,
		op.Status, jsonObject(op.Meta), jsonObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, sid, op.Seq)
	return err
}

// abandonedMessages forgets that a batch that failed touched its messages; its Ops are
// applied again when it is retried.
func (w *writer) abandonedMessages(b *batch) {
	for _, m := range b.messages {
		m.queued = false
	}
}

// committedMessages updates the writer's open messages after the batch committed: those
// it ended are done, the others are stored with nothing left to write.
func (w *writer) committedMessages(b *batch) {
	for _, m := range b.messages {
		m.queued = false
		if m.end != nil {
			delete(w.open, msgKey{m.sid, m.hdr.Seq})
			continue
		}
		m.stored = true
		m.dirty = nil
	}
}
