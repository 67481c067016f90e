package postgres

import (
	"slices"

	"github.com/sessionkeep/sessionkeep/session"
)

// A session is branched once a main-chain message's parent is not the main-chain message
// stored before it (see the SQLite backend's migration 5). Until migration 6 a plpgsql row
// trigger on messages decided it, with two lookups per inserted row; now the writer does: the
// lock of each session a batch writes to also reads its branched flag and its last
// main-chain message (lockSessionSQL), the batch notes the messages it inserted (and the
// server did not refuse), and touch sets the flag in the listing's UPDATE. What the writer
// cannot follow in memory (a fork's copies, a batch run Op by Op under savepoints, a message
// inserted below the session's last) is judged by the server, once per session per batch
// (markBranchedSQL).

// mainChain is what a batch knows of the main chain of one session it writes to.
type mainChain struct {
	known    bool // false: the writer cannot follow it, the server judges (markBranchedSQL)
	branched bool
	hasLast  bool   // a main-chain message is stored
	last     string // its uuid, as stored
	lastSeq  int64
	inserted []insertedMessage // the batch's messages the server stored, in the order it stored them
	fromSeq  int64             // the lowest seq inserted
}

// insertedMessage is what the branch mark needs of a message a batch stored.
type insertedMessage struct {
	seq          int64
	uuid, parent string
	sidechain    bool
}

// chainOf is the batch's main chain of session sid; a session the batch neither locked
// nor created (or whose main chain an Op changed) is not known.
func (b *batchWriter) chainOf(sid int64) *mainChain {
	if b.chains == nil {
		b.chains = map[int64]*mainChain{}
	}
	c := b.chains[sid]
	if c == nil {
		c = &mainChain{}
		b.chains[sid] = c
	}
	return c
}

// noteLocked records what the lock of session sid read of its main chain.
func (b *batchWriter) noteLocked(sid int64, branched, hasLast bool, last string, lastSeq int64) {
	c := b.chainOf(sid)
	c.known, c.branched, c.hasLast, c.last, c.lastSeq = true, branched, hasLast, last, lastSeq
}

// noteCreated records that session sid was created empty by the batch.
func (b *batchWriter) noteCreated(sid int64) {
	*b.chainOf(sid) = mainChain{known: true}
}

// noteUnknown leaves the main chain of session sid to the server: an Op changed it in a
// way the writer does not follow (a fork's copies, the session deleted).
func (b *batchWriter) noteUnknown(sid int64) {
	c := b.chainOf(sid)
	c.known = false
}

// noteBranched records that an Op marked session sid branched itself (MoveHead).
func (b *batchWriter) noteBranched(sid int64) {
	b.chainOf(sid).branched = true
}

// noteInserted records a message of session sid the server stored.
func (b *batchWriter) noteInserted(sid int64, h session.MessageHeader) {
	c := b.chainOf(sid)
	if len(c.inserted) == 0 || h.Seq < c.fromSeq {
		c.fromSeq = h.Seq
	}
	c.inserted = append(c.inserted, insertedMessage{h.Seq, storableText(h.UUID), storableText(h.ParentUUID), h.IsSidechain})
}

// branches reports whether the messages the batch stored in c mark their session branched,
// as the trigger did row by row; judged is false when the writer cannot tell, and the
// server must (markBranchedSQL).
func (c *mainChain) branches() (marks, judged bool) {
	if c.branched || len(c.inserted) == 0 {
		return false, true
	}
	if !c.known || (c.hasLast && c.fromSeq <= c.lastSeq) {
		return false, false
	}
	msgs := slices.Clone(c.inserted)
	slices.SortStableFunc(msgs, func(a, b insertedMessage) int { return int(a.seq - b.seq) })
	hasLast, last := c.hasLast, c.last
	for _, m := range msgs {
		if m.sidechain {
			continue
		}
		if m.parent != "" && (!hasLast || m.parent != last) {
			return true, true
		}
		hasLast, last = true, m.uuid
	}
	return false, true
}

// markBranchedSQL marks session $1 branched when a main-chain message from seq $2 on has a
// parent other than the main-chain message before it: the trigger's rule, judged by the
// server over the session's stored messages, for what the writer cannot follow.
const markBranchedSQL = `UPDATE sessions SET branched = true WHERE sid = $1 AND NOT branched AND EXISTS (
		SELECT 1 FROM (SELECT m.seq, m.parent_uuid, lag(m.uuid) OVER (ORDER BY m.seq) AS before
			FROM messages m WHERE m.sid = $1 AND NOT m.is_sidechain) c
		WHERE c.seq >= $2 AND c.parent_uuid <> '' AND c.parent_uuid IS DISTINCT FROM c.before)`

// branchMark is the value touch gives the branched flag of session sid (true: mark it),
// after queueing markBranchedSQL for a session the writer cannot judge.
func (b *batchWriter) branchMark(sid int64) (bool, error) {
	c := b.chains[sid]
	if c == nil {
		return false, nil
	}
	marks, judged := c.branches()
	if judged && !b.careful {
		return marks, nil
	}
	if c.branched || len(c.inserted) == 0 {
		return false, nil
	}
	return false, b.queue(nil, markBranchedSQL, sid, c.fromSeq)
}
