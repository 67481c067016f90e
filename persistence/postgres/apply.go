package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// errConflict is an Op that conflicts with what is stored (a seq another writer took): it
// is skipped and reported through Flush, as on SQLite.
var errConflict = errors.New("conflict")

// msgbody.Key names a message of the database.

// touched is what a batch changed of one session's listing (see the SQLite backend's
// apply.go, whose rules this follows).
type touched struct {
	id            string
	messages      int64
	tools         int64 // tool uses noted
	lastMessageAt int64 // the created_at of the last message begun
	// unsettled: messages were begun since the listing last said so (open, not archived, the
	// last message's time); settle says it before an Op that changes those, touch at the end.
	unsettled   bool
	updatedAt   int64
	interrupted bool
}

// batchWriter applies one batch inside the writer's transaction. PostgreSQL aborts a
// transaction at its first failed statement, so conflicts are found without one: inserts
// say ON CONFLICT DO NOTHING and a row not inserted is the conflict.
type batchWriter struct {
	w        *writer
	c        conn // on the writer's connection, inside the transaction begin opened
	careful  bool // each Op under a savepoint, its statements run at once
	sessions map[int64]*touched
	// searchable is set when the batch stored blocks whose search vector is left to the
	// indexer (search_index.go).
	searchable bool

	blocks   blockRows                      // blocks gathered for one statement (blocks_batch.go)
	messages messageRows                    // messages gathered for one statement (messages_batch.go)
	trackers map[int64]session.TokenTracker // the last tracker of each session (tracker.go)
	chains   map[int64]*mainChain           // the main chain of each session written (branch_mark.go)
	// whole names the messages inserted whole by their EndMessage, begins holds what their
	// BeginMessage left for it (message_once.go).
	whole  map[batchMessage]bool
	begins map[msgbody.Key]beginning
	// completed are the messages still streaming that the batch completed blocks of, whose
	// search text changes (streaming_text.go).
	completed map[msgbody.Key]bool
	// ended are the messages this writer began before the batch that the batch ended, to be
	// held open again when it fails (ended.go).
	ended   []endedOpen
	pending *pgx.Batch // statements queued for the next round trip (pipeline.go)
	results []pipelined
}

// apply locks the rows of the sessions the batch writes to (session_locks.go), applies
// every Op, then updates the listings and notifies watchers. A careful batch runs each Op
// under a savepoint, so that an Op PostgreSQL refuses (a value it cannot store, a
// constraint) is skipped and reported rather than failing the batch for ever.
func (b *batchWriter) apply(batch []session.Op) error {
	if !b.careful {
		b.whole, b.begins = endingWhole(batch), map[msgbody.Key]beginning{}
	}
	if err := b.lockSessions(batch); err != nil {
		return err
	}
	for _, op := range batch {
		var err error
		if b.careful {
			err = b.applyGuarded(op)
		} else {
			err = b.applyOp(op)
		}
		if errors.Is(err, errConflict) || errors.Is(err, errUnknownSession) {
			b.w.noteDropped(err)
			continue
		}
		if err != nil {
			return err
		}
	}
	if err := b.queueStreamingTexts(); err != nil {
		return err
	}
	// What was refused is known once the queued statements ran; touch counts what was not.
	if err := b.send(); err != nil {
		return err
	}
	return b.touch() // sent with the commit (pipeline.go)
}

// applyGuarded applies op under a savepoint and turns a refusal of its data into a conflict.
func (b *batchWriter) applyGuarded(op session.Op) error {
	if _, err := b.exec(`SAVEPOINT op`); err != nil {
		return err
	}
	err := b.applyOp(op)
	if refused(err) {
		if _, rerr := b.exec(`ROLLBACK TO SAVEPOINT op`); rerr != nil {
			return rerr
		}
		return fmt.Errorf("%w: %v", errConflict, err)
	}
	if err != nil {
		return err
	}
	_, err = b.exec(`RELEASE SAVEPOINT op`)
	return err
}

func (b *batchWriter) applyOp(op session.Op) error {
	if !keepsBlockOrder(op) {
		b.queueBlocks()
	}
	switch op := op.(type) {
	case session.CreateSession:
		_, err := b.createSession(op.Info)
		return err
	case session.ForkSession:
		return b.fork(op)
	case session.ManagementOp:
		b.noteInterrupted(op)
		return b.applyManagement(op)
	case session.ContextOp:
		return b.applyContextOp(op)
	}
	sessionOp, ok := op.(session.SessionOp)
	if !ok {
		return fmt.Errorf("unknown op %T", op)
	}
	sid, err := b.sid(sessionOp.SessionOf())
	if err != nil {
		return err
	}
	t := b.sessions[sid]
	if t == nil {
		t = &touched{id: sessionOp.SessionOf()}
		b.sessions[sid] = t
	}
	return b.applySessionOp(sid, t, op)
}

func (b *batchWriter) applySessionOp(sid int64, t *touched, op session.Op) error {
	switch op := op.(type) {
	case session.BeginMessage:
		t.messages++
		t.interrupted = false
		h := op.Header
		t.lastMessageAt, t.unsettled = h.CreatedAt.UnixMilli(), true
		key := msgbody.Key{SID: sid, Seq: h.Seq}
		b.w.begun[key] = h.UUID
		b.w.open.Begin(sid, op, false)
		// A message that follows one this writer began is stored only if that one was: once a
		// message is refused for another writer's seq, the rest of this writer's turn in the
		// session is refused with it, and the session keeps the other writer's messages only.
		var mustFollow any // NULL: no condition
		if last, ok := b.w.lastBegun[sid]; ok && last == h.ParentUUID {
			mustFollow = last
		}
		b.w.lastBegun[sid] = h.UUID
		onDone := func(changed int64) {
			if changed == 0 { // another writer has this seq, or the message before: this one is refused, theirs kept
				t.messages--
				b.w.noteDropped(fmt.Errorf("%w: session %s already has a message at seq %d, or another writer's before it", errConflict, op.SessionID, h.Seq))
				return
			}
			b.noteInserted(sid, h)
		}
		if b.whole[batchMessage{op.SessionID, h.Seq}] {
			b.begins[key] = beginning{h, mustFollow, onDone} // inserted whole by its EndMessage
			return nil
		}
		return b.queueMessage(sid, h, session.MessageStreaming, h.Meta, h.Extra, session.Usage{}, endedBody{}, mustFollow, onDone)
	case session.PutBlock:
		return b.putBlock(sid, t, op)
	case session.EndMessage:
		return b.endMessage(sid, op)
	case session.SetTracker:
		return b.setTracker(sid, op.Tracker)
	case session.SetTitle:
		// A title made from the first prompt never replaces one the user gave.
		return b.queue(nil, `UPDATE sessions SET title = $1 WHERE sid = $2 AND title = ''`, op.Title, sid)
	case session.SetUpdatedAt:
		t.updatedAt = op.Time.UnixMilli()
		return nil
	case session.MoveHead:
		if _, err := b.exec(`INSERT INTO rewinds(sid, at_seq, uuid, created_at) VALUES ($1, $2, $3, $4)`,
			sid, op.AtSeq, op.UUID, op.At.UnixMilli()); err != nil {
			return err
		}
		_, err := b.exec(`UPDATE sessions SET branched = true WHERE sid = $1`, sid)
		b.noteBranched(sid)
		return err
	case session.PutFileSnapshot:
		return b.putFileSnapshot(sid, op.Snapshot)
	case session.AddRedactions:
		return b.queue(nil, `UPDATE sessions SET redactions = redactions + $1 WHERE sid = $2`, op.Count, sid)
	}
	return fmt.Errorf("unknown op %T", op)
}

// noteInterrupted notes a close that marks a session interrupted after messages of the
// same batch, so that touch leaves the status it sets; and forgets the session's messages
// left open, which will not end in this process.
func (b *batchWriter) noteInterrupted(op session.ManagementOp) {
	closed, ok := op.(session.CloseSession)
	if !ok {
		return
	}
	sid, err := b.sid(closed.SessionID)
	if err != nil {
		return
	}
	b.w.forgetBegun(sid)
	if closed.Interrupted && b.sessions[sid] != nil {
		b.sessions[sid].interrupted = true
	}
}

// createSession inserts a session; a key another host took first leaves it uncreated
// (ok false), and session.Manager then opens the session that holds the key.
func (b *batchWriter) createSession(info session.SessionInfo) (ok bool, err error) {
	sid := int64(-1)
	err = b.query(`INSERT INTO sessions(id, project_path, title, provider, model, context_window, created_at, updated_at,
			last_accessed_at, status, owner, is_open, session_key)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true, $12) ON CONFLICT DO NOTHING RETURNING sid`,
		[]any{info.ID, info.ProjectPath, info.Title, info.Provider, info.Model, info.ContextWindow,
			info.CreatedAt.UnixMilli(), info.UpdatedAt.UnixMilli(), info.CreatedAt.UnixMilli(), info.Status, b.w.owner, nullable(info.Key)},
		func(row []any) error {
			sid = row[0].(int64)
			return nil
		})
	if err != nil || sid < 0 {
		return false, err
	}
	b.w.sids[info.ID] = sid
	b.noteCreated(sid)
	return true, nil
}

// sid returns the database key of a session.
func (b *batchWriter) sid(id string) (int64, error) {
	if sid, ok := b.w.sids[id]; ok {
		return sid, nil
	}
	sid, err := lookupSID(b.c, id)
	if err == nil {
		b.w.sids[id] = sid
	}
	return sid, err
}

// putBlock stores a block, or replaces a partial checkpoint of it, and notes a tool_use for
// ToolUseSeq. Both only land in the message this writer began: a message refused for
// another writer's seq keeps that writer's blocks. A block of a message this writer has
// open is held for its body (open_bodies.go) and journaled in a block row, unless the
// message ends in this batch (message_once.go); a block of a message that has ended
// rewrites its body (rewriteEnded).
func (b *batchWriter) putBlock(sid int64, t *touched, op session.PutBlock) error {
	key := msgbody.Key{SID: sid, Seq: op.Seq}
	uuid := b.w.ownUUID(key)
	if b.w.open[key] != nil {
		b.w.open.Put(sid, op, false)
	} else {
		rewritten, err := b.rewriteEnded(sid, op)
		if err != nil {
			return err
		}
		if rewritten {
			return b.queueToolUse(sid, t, op, uuid)
		}
	}
	if _, whole := b.begins[key]; whole {
		return b.queueToolUse(sid, t, op, uuid)
	}
	b.noteCompleted(key, op)
	if !b.careful {
		b.blocks.add(blockKey{sid, op.Seq, int64(op.Index)}, op.Partial, op.JSON, textPtr(uuid))
		return b.queueToolUse(sid, t, op, uuid)
	}
	err := b.queue(nil, `INSERT INTO blocks(sid, seq, idx, partial, body)
		SELECT $1, $2, $3, $4, $5 WHERE $6::text IS NULL OR EXISTS (SELECT 1 FROM messages WHERE sid = $1 AND seq = $2 AND uuid = $6)
		ON CONFLICT (sid, seq, idx) DO UPDATE SET partial = excluded.partial, body = excluded.body`,
		sid, op.Seq, op.Index, op.Partial, op.JSON, uuid)
	if err != nil {
		return err
	}
	return b.queueToolUse(sid, t, op, uuid)
}

// queueToolUse notes the tool_use a block holds, if any: at once in a careful batch, else
// with the gathered blocks, after the message it must land in (which may be inserted whole
// by its end, message_once.go).
func (b *batchWriter) queueToolUse(sid int64, t *touched, op session.PutBlock, uuid any) error {
	if op.ToolUseID == "" {
		return nil
	}
	use := toolUse{sid: sid, id: op.ToolUseID, seq: op.Seq, uuid: uuid, t: t}
	if !b.careful {
		b.blocks.toolUses = append(b.blocks.toolUses, use)
		return nil
	}
	return b.queue(use.done, insertToolUseSQL, use.args()...)
}

// touch updates the listing of every session the batch wrote to, and stores the last
// tracker the batch gathered for it, in one statement each (what SQLite's triggers do per
// message: the last message, the tool count, open and not archived), and notifies the
// store's channel with each one's id. The order does not matter: the batch holds the rows.
func (b *batchWriter) touch() error {
	now := time.Now().UnixMilli()
	for sid, t := range b.sessions {
		updated := now
		if t.updatedAt != 0 {
			updated = t.updatedAt
		}
		active := t.messages > 0 && !t.interrupted
		branches, err := b.branchMark(sid)
		if err != nil {
			return err
		}
		args := append([]any{t.messages, updated, b.w.owner, active, t.tools, t.unsettled, t.lastMessageAt, sid}, b.gatheredTracker(sid)...)
		args = append(args, branches)
		if err := b.queue(nil, touchSQL, args...); err != nil {
			return err
		}
		if err := b.queue(nil, notifySQL, b.w.channel, t.id); err != nil {
			return err
		}
	}
	return nil
}

// touchSQL updates a session's listing after a batch ($1–$8), unless NULL its tracker
// ($9–$13), and marks it branched when the batch's messages branch it ($14, branch_mark.go).
const touchSQL = `UPDATE sessions SET message_count = message_count + $1, updated_at = $2, owner = $3,
	status = CASE WHEN $4 THEN 'active' ELSE status END, tool_count = tool_count + $5,
	last_message_at = CASE WHEN $6 THEN $7 ELSE last_message_at END,
	archived_at = CASE WHEN $6 THEN 0 ELSE archived_at END,
	is_open = is_open OR $6,
	input_tokens = coalesce($9::bigint, input_tokens), output_tokens = coalesce($10::bigint, output_tokens),
	cache_read_tokens = coalesce($11::bigint, cache_read_tokens), cache_creation_tokens = coalesce($12::bigint, cache_creation_tokens),
	context_tokens = coalesce($13::bigint, context_tokens),
	branched = branched OR $14
	WHERE sid = $8`

// settle updates what messages begun in this batch make of session sid's listing (open, not
// archived, its last message's time) before an Op that may change it again: in Op order, as
// SQLite's trigger does it per message.
func (b *batchWriter) settle(sid int64) error {
	t := b.sessions[sid]
	if t == nil || !t.unsettled {
		return nil
	}
	t.unsettled = false
	return b.queue(nil, `UPDATE sessions SET last_message_at = $1, archived_at = 0, is_open = true WHERE sid = $2`, t.lastMessageAt, sid)
}

// nullable is s, or NULL when s is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
