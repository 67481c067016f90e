package sqlite

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// openBodies holds, for each message the writer has begun and not yet ended, what its body
// will be made of: the header and the blocks as the writer stored them. Ending a message
// then encodes its body from memory and stores it with the same UPDATE that ends the
// message, instead of reading the message's rows back (W1 of the speed benchmark: the
// read-back was a quarter of the writer's time).
//
// What is missing from memory (a message begun before a failed batch was retried, blocks
// that arrived out of order) falls back to the read-back of writeBody; a retried batch
// re-applies its Ops in order, so memory never holds what the database does not.
type openBodies map[messageKey]*openBody

// messageKey names a message of the database.
type messageKey struct{ sid, seq int64 }

// openBody is the header and blocks of a message still streaming. Each block is its JSON;
// partial marks a checkpoint of a block still streaming. journaled says some of its blocks
// are in block rows, which ending the message deletes; unwritten, that the message ends in
// the batch it began in, so its row is inserted only when it ends, whole.
type openBody struct {
	sessionID string
	header    session.MessageHeader
	blocks    [][]byte
	partial   []bool
	journaled bool
	unwritten bool
}

// begin starts the body of a message; unwritten says its row is not inserted yet.
func (o openBodies) begin(sid int64, op session.BeginMessage, unwritten bool) {
	o[messageKey{sid, op.Header.Seq}] = &openBody{sessionID: op.SessionID, header: op.Header, unwritten: unwritten}
}

// put records block op of a message begun through o; journaled says it went to a block row.
func (o openBodies) put(sid int64, op session.PutBlock, journaled bool) {
	b := o[messageKey{sid, op.Seq}]
	if b == nil {
		return
	}
	for len(b.blocks) <= op.Index {
		b.blocks, b.partial = append(b.blocks, nil), append(b.partial, true)
	}
	b.blocks[op.Index], b.partial[op.Index] = op.JSON, op.Partial
	b.journaled = b.journaled || journaled
}

// take removes message seq of session sid from o and returns what o held of it, nil when
// nothing.
func (o openBodies) take(sid, seq int64) *openBody {
	key := messageKey{sid, seq}
	b := o[key]
	delete(o, key)
	return b
}

// message returns the message b makes with what op ends it with, its blocks as ASCII
// JSON; ok is false when b does not hold a whole message (a partial or missing block, or
// a record that is not a message).
func (b *openBody) message(op session.EndMessage) (m session.StoredMessage, ok bool) {
	if b.header.Role == "" {
		return m, false
	}
	for i := range b.blocks {
		if b.partial[i] || b.blocks[i] == nil {
			return m, false
		}
	}
	h := b.header
	m = session.StoredMessage{Seq: h.Seq, UUID: h.UUID, ParentUUID: h.ParentUUID, SessionID: b.sessionID, Type: h.Type,
		Role: h.Role, Turn: h.Turn, Status: op.Status, CreatedAt: truncatedToStored(h), Provider: h.Provider,
		RequestID: h.RequestID, IsSidechain: h.IsSidechain, Continues: h.Continues,
		Meta: jsonObject(op.Meta), Extra: jsonObject(op.Extra), Blocks: make([][]byte, len(b.blocks))}
	for i, block := range b.blocks {
		// A block that is ASCII already (what the ingest path writes) is used as it is:
		// copying each one was 14 ms of the writer's time per W1 of the speed benchmark.
		if jsonenc.IsASCII(block) {
			m.Blocks[i] = block
		} else {
			m.Blocks[i] = jsonenc.AppendASCII(nil, block)
		}
	}
	return m, true
}

// truncatedToStored returns the header's time as the messages table keeps it, to the
// millisecond, so a body from memory and one read back are the same bytes.
func truncatedToStored(h session.MessageHeader) time.Time {
	return time.UnixMilli(h.CreatedAt.UnixMilli())
}

// forget drops the bodies of a session's messages that will not end in this process.
func (o openBodies) forget(sid int64) {
	for key := range o {
		if key.sid == sid {
			delete(o, key)
		}
	}
}
