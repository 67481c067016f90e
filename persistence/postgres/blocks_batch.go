package postgres

import (
	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// blockRows are the blocks a batch journals (the blocks of messages that go on streaming
// past it), gathered so that they go to the server as one
// multi-row statement (INSERT … SELECT FROM unnest of one array per column) instead of one
// statement per block: a streamed turn is mostly blocks, and the server's cost per statement
// (bind, plan, execute, each block's own subquery) was most of a commit's. One row per block
// key: a block checkpointed twice in a batch (partial, then complete) is stored as its last.
type blockRows struct {
	at       map[blockKey]int // the row of each key
	sid      []int64
	seq      []int64
	idx      []int64
	partial  []bool
	body     [][]byte
	ownerMsg []*string // the uuid of the message the block must land in, NULL for none
	toolUses []toolUse
	// ended are the messages that ended after their blocks were gathered: their bodies hold
	// the blocks, which are not journaled.
	ended map[msgbody.Key]bool
}

// toolUse is a tool_use block noted for ToolUseSeq, in the message this writer began when
// uuid names one.
type toolUse struct {
	sid  int64
	id   string
	seq  int64
	uuid any
	t    *touched
}

// insertToolUseSQL notes a tool use; a row inserted counts in its session's listing.
const insertToolUseSQL = `INSERT INTO tool_uses(sid, tool_use_id, seq)
	SELECT $1, $2, $3 WHERE $4::text IS NULL OR EXISTS (SELECT 1 FROM messages WHERE sid = $1 AND seq = $3 AND uuid = $4)
	ON CONFLICT DO NOTHING`

func (u toolUse) args() []any { return []any{u.sid, u.id, u.seq, u.uuid} }

// done counts the tool use in its session's listing once it was inserted.
func (u toolUse) done(changed int64) { u.t.tools += changed }

// insertToolUsesSQL notes gathered tool uses as insertToolUseSQL notes one, in their order;
// RETURNING names the session of each row inserted, which counts in its listing.
const insertToolUsesSQL = `INSERT INTO tool_uses(sid, tool_use_id, seq)
	SELECT u.sid, u.id, u.seq FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[]) WITH ORDINALITY AS u(sid, id, seq, uuid, ord)
	WHERE u.uuid IS NULL OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = u.sid AND m.seq = u.seq AND m.uuid = u.uuid)
	ORDER BY u.ord
	ON CONFLICT DO NOTHING RETURNING sid`

// queueToolUses adds tool uses to the pipeline, as one statement when there are multiRowFrom
// or more (W1 notes 1,000, one statement each before), counting those inserted in their
// sessions' listings.
func (b *batchWriter) queueToolUses(uses []toolUse) {
	if len(uses) < multiRowFrom {
		for _, use := range uses {
			b.pending.Queue(insertToolUseSQL, storableArgs(use.args())...)
			b.results = append(b.results, pipelined{done: use.done})
		}
		return
	}
	var sids, seqs []int64
	var ids []string
	var uuids []*string
	touched := map[int64]*touched{}
	for _, use := range uses {
		sids, ids, seqs = append(sids, use.sid), append(ids, storableText(use.id)), append(seqs, use.seq)
		uuids = append(uuids, textPtr(use.uuid))
		touched[use.sid] = use.t
	}
	b.pending.Queue(insertToolUsesSQL, sids, ids, seqs, uuids)
	b.results = append(b.results, pipelined{rows: func(rows pgx.Rows) error {
		for rows.Next() {
			var sid int64
			if err := rows.Scan(&sid); err != nil {
				return err
			}
			touched[sid].tools++
		}
		return rows.Err()
	}})
}

// blockKey names a block of the database.
type blockKey struct{ sid, seq, idx int64 }

// add gathers a block, replacing what the batch gathered for the same key. A block of a
// message that ended earlier in the batch (one that cannot go in its body) journals that
// message's gathered blocks again: rows beside its body, which readers pass over, rather than
// a block lost.
func (r *blockRows) add(key blockKey, partial bool, body []byte, ownerMsg *string) {
	delete(r.ended, msgbody.Key{SID: key.sid, Seq: key.seq})
	if i, ok := r.at[key]; ok {
		r.partial[i], r.body[i], r.ownerMsg[i] = partial, body, ownerMsg
		return
	}
	if r.at == nil {
		r.at = map[blockKey]int{}
	}
	r.at[key] = len(r.sid)
	r.sid, r.seq, r.idx = append(r.sid, key.sid), append(r.seq, key.seq), append(r.idx, key.idx)
	r.partial, r.body = append(r.partial, partial), append(r.body, body)
	r.ownerMsg = append(r.ownerMsg, ownerMsg)
}

// drop leaves the gathered blocks of a message that has ended unjournaled.
func (r *blockRows) drop(key msgbody.Key) {
	if r.ended == nil {
		r.ended = map[msgbody.Key]bool{}
	}
	r.ended[key] = true
}

// journaled returns the gathered blocks but those of the messages dropped.
func (r *blockRows) journaled() *blockRows {
	if len(r.ended) == 0 {
		return r
	}
	kept := &blockRows{}
	for i := range r.sid {
		if !r.ended[msgbody.Key{SID: r.sid[i], Seq: r.seq[i]}] {
			kept.sid, kept.seq, kept.idx = append(kept.sid, r.sid[i]), append(kept.seq, r.seq[i]), append(kept.idx, r.idx[i])
			kept.partial, kept.body = append(kept.partial, r.partial[i]), append(kept.body, r.body[i])
			kept.ownerMsg = append(kept.ownerMsg, r.ownerMsg[i])
		}
	}
	return kept
}

// insertBlocksSQL stores gathered blocks, each only in the message this writer began when it
// names one (see putBlock), a partial checkpoint replaced by what follows it.
const insertBlocksSQL = `INSERT INTO blocks(sid, seq, idx, partial, body)
	SELECT b.sid, b.seq, b.idx, b.partial, b.body
	FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::boolean[], $5::bytea[], $6::text[])
		AS b(sid, seq, idx, partial, body, owner_uuid)
	WHERE b.owner_uuid IS NULL OR EXISTS (SELECT 1 FROM messages m WHERE m.sid = b.sid AND m.seq = b.seq AND m.uuid = b.owner_uuid)
	ON CONFLICT (sid, seq, idx) DO UPDATE SET partial = excluded.partial, body = excluded.body`

// queueBlocks adds the gathered blocks to the pipeline as one statement, after the gathered
// messages, and the tool uses noted with them, before whatever is queued next.
func (b *batchWriter) queueBlocks() {
	b.queueMessages() // the blocks' messages first
	if r := b.blocks.journaled(); len(r.sid) > 0 {
		b.pending.Queue(insertBlocksSQL, r.sid, r.seq, r.idx, r.partial, r.body, r.ownerMsg)
		b.results = append(b.results, pipelined{})
	}
	b.queueToolUses(b.blocks.toolUses)
	// The pipeline holds the arrays until it is sent: fresh ones for the next blocks.
	at := b.blocks.at
	clear(at)
	b.blocks = blockRows{at: at}
}

// keepsBlockOrder reports whether op may run before blocks gathered ahead of it are stored:
// it neither reads nor removes blocks. Any other Op sends the gathered blocks first.
func keepsBlockOrder(op session.Op) bool {
	switch op.(type) {
	case session.BeginMessage, session.PutBlock, session.EndMessage, session.SetTracker, session.SetTitle,
		session.SetUpdatedAt, session.AddRedactions, session.PutFileSnapshot:
		return true
	}
	return false
}

// textPtr is a nullable text argument (a string, or nil for NULL) as storable text for an
// array element.
func textPtr(v any) *string {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	s = storableText(s)
	return &s
}
