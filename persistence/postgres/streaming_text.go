package postgres

import (
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// A block that completes in a message still streaming is searchable at once, as on SQLite
// (a tool result waits in its message for the turn to go on): the message's search text,
// made from its complete blocks that the writer holds (msgbody.OpenBodies), is stored at the end of
// each batch that completed one of its blocks, one statement for every such message of the
// batch. Partial checkpoints, most of a stream's writes, change nothing.

// noteCompleted notes that op completed a block of a message still open.
func (b *batchWriter) noteCompleted(key msgbody.Key, op session.PutBlock) {
	if op.Partial || b.w.open[key] == nil {
		return
	}
	if b.completed == nil {
		b.completed = map[msgbody.Key]bool{}
	}
	b.completed[key] = true
}

// queueStreamingTexts stores the search text of each message still streaming whose blocks
// the batch completed, in the message this writer began.
func (b *batchWriter) queueStreamingTexts() error {
	var sids, seqs []int64
	var uuids, texts []*string
	for key := range b.completed {
		open := b.w.open[key]
		if open == nil {
			continue
		}
		text := b.textOf(completeBlocks(open))
		if text == nil {
			continue
		}
		sids, seqs = append(sids, key.SID), append(seqs, key.Seq)
		uuids, texts = append(uuids, textPtr(b.w.ownUUID(key))), append(texts, textPtr(text))
	}
	clear(b.completed)
	if len(sids) == 0 {
		return nil
	}
	return b.queue(nil, `UPDATE messages m SET search_text = f.text, search = NULL
		FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS f(sid, seq, uuid, text)
		WHERE m.sid = f.sid AND m.seq = f.seq AND m.uuid = f.uuid AND m.body IS NULL`, sids, seqs, uuids, texts)
}
