package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// A message that begins and ends within one group commit, its blocks between and nothing
// else touching its session's messages or blocks in between, is inserted once, whole, by the
// Op that ends it: one statement with its final status, meta, usage and body instead of an
// INSERT that a later UPDATE rewrites (a dead row version per message, and a second
// statement). Its blocks are not journaled at all, unless it ends without a whole body (a
// partial block): then they go in the batch's block statement, which is queued after it
// (blocks_batch.go).

// endingWhole returns the messages of batch that can be inserted whole: each begun, then
// only its own blocks in its session, then ended, with no Op between that stores the gathered
// blocks (keepsBlockOrder) in any session, since those blocks must find their message.
func endingWhole(batch []session.Op) map[batchMessage]bool {
	var whole map[batchMessage]bool
	open := map[string]int64{} // per session, the seq of the candidate begun and not ended
	for _, op := range batch {
		switch op := op.(type) {
		case session.BeginMessage:
			open[op.SessionID] = op.Header.Seq // another message begun: the one before is not a candidate
		case session.PutBlock:
			if seq, ok := open[op.SessionID]; ok && seq != op.Seq {
				delete(open, op.SessionID)
			}
		case session.EndMessage:
			if seq, ok := open[op.SessionID]; ok && seq == op.Seq {
				if whole == nil {
					whole = map[batchMessage]bool{}
				}
				whole[batchMessage{op.SessionID, op.Seq}] = true
			}
			delete(open, op.SessionID)
		default:
			if !keepsBlockOrder(op) {
				clear(open)
			}
		}
	}
	return whole
}

// batchMessage names a message by its session's id, as Ops do.
type batchMessage struct {
	sessionID string
	seq       int64
}

// beginning is what a BeginMessage whose message is inserted whole leaves for its end: the
// header, the condition on the message before it, and what to do when it is refused.
type beginning struct {
	header     session.MessageHeader
	mustFollow any
	onDone     func(changed int64)
}

// insertMessageSQL inserts a message, unless another writer has its seq or, when $23 names
// one, the message it must follow is not stored; $8 is its status, $20–$22 its body, layout
// and search text (NULL for a message that streams on).
const insertMessageSQL = `INSERT INTO messages(sid, seq, uuid, parent_uuid, type, role, turn, status, created_at, provider,
		request_id, is_sidechain, continues, meta, extra, input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,
		body, layout, search_text)
	SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22
	WHERE $23::text IS NULL OR EXISTS (SELECT 1 FROM messages WHERE sid = $1 AND uuid = $23)
	ON CONFLICT DO NOTHING`

// queueMessage queues the insert of a message with status, meta, extra, usage and, for one
// that has ended whole, its body (ended.go): gathered with the messages around it for one
// statement (messages_batch.go), or at once in a careful batch.
func (b *batchWriter) queueMessage(sid int64, h session.MessageHeader, status string, meta, extra []byte, u session.Usage,
	body endedBody, mustFollow any, onDone func(changed int64)) error {
	if !b.careful {
		b.messages.add(sid, h, status, meta, extra, u, body, mustFollow, onDone)
		return nil
	}
	return b.queue(onDone, insertMessageSQL, sid, h.Seq, h.UUID, h.ParentUUID, h.Type, h.Role, h.Turn, status,
		h.CreatedAt.UnixMilli(), h.Provider, h.RequestID, h.IsSidechain, h.Continues, msgbody.JSONObject(meta), msgbody.JSONObject(extra),
		u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, body.body, body.layout, body.text, mustFollow)
}
