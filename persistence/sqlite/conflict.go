package sqlite

import (
	"fmt"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/persistence/sqlite/sqlconn"
	"github.com/sessionkeep/sessionkeep/session"
)

// refusedMessages are the messages this writer began that another process's took the place
// of: their seq was taken when they were to be inserted, or they follow one that was. Their
// blocks and ends are skipped, so the other process's rows stay as it wrote them, block rows
// of a message still streaming included; as on PostgreSQL, the rest of this writer's turn
// in the session is refused with the first message refused, and the session keeps the other
// writer's messages only.
type refusedMessages struct {
	keys  map[msgbody.Key]bool
	uuids map[string]int64 // the sid of each refused message, by its uuid
}

// add refuses message h of session sid.
func (r *refusedMessages) add(sid int64, h session.MessageHeader) {
	if r.keys == nil {
		r.keys, r.uuids = map[msgbody.Key]bool{}, map[string]int64{}
	}
	r.keys[msgbody.Key{SID: sid, Seq: h.Seq}] = true
	r.uuids[h.UUID] = sid
}

// forget takes message seq of session sid off the refused, when a message began there: a
// session created after one refused was deleted may have been given its sid again.
func (r *refusedMessages) forget(sid, seq int64) { delete(r.keys, msgbody.Key{SID: sid, Seq: seq}) }

// forgetSession takes every message of session sid off the refused, when the session
// closes or is deleted: this writer writes no more of it, and a long-lived process would
// otherwise keep each refused message of every session it ever wrote.
func (r *refusedMessages) forgetSession(sid int64) {
	for key := range r.keys {
		if key.SID == sid {
			delete(r.keys, key)
		}
	}
	for uuid, of := range r.uuids {
		if of == sid {
			delete(r.uuids, uuid)
		}
	}
}

// has reports whether message seq of session sid was refused.
func (r *refusedMessages) has(sid, seq int64) bool { return r.keys[msgbody.Key{SID: sid, Seq: seq}] }

// follows reports whether h's parent was refused.
func (r *refusedMessages) follows(h session.MessageHeader) bool {
	_, refused := r.uuids[h.ParentUUID]
	return h.ParentUUID != "" && refused
}

// refusesBegin refuses op's message when it follows one refused, reporting it to Flush.
func (w *writer) refusesBegin(sid int64, op session.BeginMessage) bool {
	if !w.refused.follows(op.Header) {
		return false
	}
	w.refused.add(sid, op.Header)
	w.noteDropped(fmt.Errorf("message %d of session %s follows one another process's took the place of", op.Header.Seq, op.SessionID))
	return true
}

// refuseOnConflict refuses message h of session sid when err, from inserting its row, says
// another process took its seq: the message no longer counts in t, Flush reports it, and
// nil is returned so that the batch goes on. Any other err is returned as it is.
func (w *writer) refuseOnConflict(sid int64, h session.MessageHeader, t *touched, err error) error {
	if err == nil {
		w.refused.forget(sid, h.Seq)
	}
	if !sqlconn.IsConstraint(err) {
		return err
	}
	w.refused.add(sid, h)
	t.messages--
	w.noteDropped(err)
	return nil
}

// noteDropped records an Op skipped for conflicting with what is stored, for Flush to report.
func (w *writer) noteDropped(err error) {
	w.q.NoteDropped(fmt.Errorf("%w: a write was skipped: %v", session.ErrSessionConflict, err))
}
