package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// endedBody is what a message that has ended is stored with: its body and layout when it
// ended whole, else the search text of its complete blocks (NULL when none has any). The
// zero value is a message without a body or text.
type endedBody struct {
	body, layout []byte
	text         any
}

// bodyOf encodes the body of m, a message whose blocks are all complete, and notes that the
// batch left it to be indexed for search.
func (b *batchWriter) bodyOf(m *session.StoredMessage, imported bool) endedBody {
	body, layout := encodeBody(&b.w.bodies, m, imported)
	b.searchable = true // the indexer cuts its text from the body
	return endedBody{body: body, layout: layout}
}

// textOf is the search text of blocks (messageSearchText), which the batch leaves to be
// indexed.
func (b *batchWriter) textOf(blocks [][]byte) any {
	text := messageSearchText(blocks)
	if text != nil {
		b.searchable = true
	}
	return text
}

// endMessage ends message op.Seq of session sid with its status, fields and usage and, when
// the writer holds all its blocks complete (msgbody.OpenBodies), its body: inserted whole when it
// began in this batch (message_once.go), else with the UPDATE that ends it, which is followed
// by the deletion of the block rows that journaled it. A message whose blocks the writer
// does not hold (begun by a process before this one) or that has a partial block keeps its
// block rows, and readers read it from them; search finds the text of its complete blocks
// that the writer holds.
func (b *batchWriter) endMessage(sid int64, op session.EndMessage) error {
	key := msgbody.Key{SID: sid, Seq: op.Seq}
	uuid := b.w.ownUUID(key)
	delete(b.w.begun, key)
	open := b.w.open.Take(sid, op.Seq)
	delete(b.completed, key)
	if uuid != nil {
		b.ended = append(b.ended, endedOpen{key, uuid.(string), open})
	}
	begun, whole := b.begins[key]
	delete(b.begins, key)
	var ended endedBody
	if open != nil {
		if p := msgbody.Prepared(op); p != nil && p.Body != nil && len(open.Blocks) > 0 {
			ended = endedBody{body: p.Body, layout: p.Layout} // an imported record the importing goroutine encoded
			b.searchable = true
		} else if m, ok := wholeMessage(open, op); ok {
			ended = b.bodyOf(&m, op.Imported)
		} else {
			ended.text = b.textOf(completeBlocks(open))
			if whole {
				b.journalOpen(key, open, uuid)
			}
		}
	}
	if whole {
		return b.queueMessage(sid, begun.header, op.Status, op.Meta, op.Extra, op.Usage, ended, begun.mustFollow, begun.onDone)
	}
	u := op.Usage
	if open == nil { // what is stored of its blocks and text stays as it is
		return b.queue(nil, `UPDATE messages SET status = $1, meta = $2, extra = $3, input_tokens = $4, output_tokens = $5,
			cache_read_tokens = $6, cache_creation_tokens = $7 WHERE sid = $8 AND seq = $9 AND ($10::text IS NULL OR uuid = $10)`,
			op.Status, msgbody.JSONObject(op.Meta), msgbody.JSONObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens,
			u.CacheCreationInputTokens, sid, op.Seq, uuid)
	}
	err := b.queue(nil, `UPDATE messages SET status = $1, meta = $2, extra = $3, input_tokens = $4, output_tokens = $5,
		cache_read_tokens = $6, cache_creation_tokens = $7, body = $8, layout = $9, search_text = $10, search = NULL
		WHERE sid = $11 AND seq = $12 AND ($13::text IS NULL OR uuid = $13)`,
		op.Status, msgbody.JSONObject(op.Meta), msgbody.JSONObject(op.Extra), u.InputTokens, u.OutputTokens, u.CacheReadInputTokens,
		u.CacheCreationInputTokens, ended.body, ended.layout, ended.text, sid, op.Seq, uuid)
	if err != nil || ended.body == nil {
		return err
	}
	b.blocks.drop(key)
	return b.queue(nil, `DELETE FROM blocks WHERE sid = $1 AND seq = $2
		AND EXISTS (SELECT 1 FROM messages WHERE sid = $1 AND seq = $2 AND uuid = $3 AND body IS NOT NULL)`, sid, op.Seq, uuid)
}

// journalOpen gathers the blocks of a message that began in this batch and ends without a
// whole body, to be journaled after its row is inserted.
func (b *batchWriter) journalOpen(key msgbody.Key, open *msgbody.OpenBody, uuid any) {
	for i, block := range open.Blocks {
		if block != nil {
			b.blocks.add(blockKey{key.SID, key.Seq, int64(i)}, open.Partial[i], block, textPtr(uuid))
		}
	}
}

// rewriteEnded stores a block of a message that has ended with a body in that body: the
// body is read back, the block replaced (or added after the last), and the body encoded
// again, its search vector reset. It reports false, storing nothing, when the message has no
// body (it is journaled, or is another writer's still streaming) or when the block cannot
// be in a body (a partial one, or one past a gap): the block is then journaled. This costs a
// round trip, but only a block that comes after its message's end pays it.
func (b *batchWriter) rewriteEnded(sid int64, op session.PutBlock) (bool, error) {
	if op.Partial {
		return false, nil
	}
	var m *session.StoredMessage
	err := b.query(`SELECT `+messageColumns+`, s.id, m.body, m.layout FROM messages m JOIN sessions s ON s.sid = m.sid
		WHERE m.sid = $1 AND m.seq = $2 AND m.body IS NOT NULL`, []any{sid, op.Seq}, func(row []any) error {
		stored := messageOfRow(row, row[messageColumnCount].(string))
		_, _, blocks, err := bodyBlocks(row[messageColumnCount+1].([]byte), row[messageColumnCount+2].([]byte), nil, stored.Seq)
		stored.Blocks = blocks
		m = &stored
		return err
	})
	if err != nil || m == nil || op.Index > len(m.Blocks) {
		return false, err
	}
	if op.Index == len(m.Blocks) {
		m.Blocks = append(m.Blocks, op.JSON)
	} else {
		m.Blocks[op.Index] = op.JSON
	}
	ended := b.bodyOf(m, false)
	return true, b.queue(nil, `UPDATE messages SET body = $1, layout = $2, search_text = $3, search = NULL WHERE sid = $4 AND seq = $5`,
		ended.body, ended.layout, ended.text, sid, op.Seq)
}

// endedOpen is a message a batch ended: its key, the uuid it was begun with and what the
// writer held of its body.
type endedOpen struct {
	key  msgbody.Key
	uuid string
	open *msgbody.OpenBody
}

// reopenEnded holds the messages the batch ended open again after the batch failed, so that
// applying it again (op by op, or after a reconnection) ends them as it would have.
func (b *batchWriter) reopenEnded() {
	for _, e := range b.ended {
		b.w.begun[e.key] = e.uuid
		if e.open != nil {
			b.w.open[e.key] = e.open
		}
	}
}
