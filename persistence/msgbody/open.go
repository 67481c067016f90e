package msgbody

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// OpenBodies holds, for each message a writer has begun and not yet ended, what its body
// will be made of: the header and the blocks as the writer stored them. Ending a message
// then encodes its body from memory and stores it with the same statement that ends the
// message, instead of reading the message's rows back (W1 of the speed benchmark: the
// read-back was a quarter of the writer's time).
//
// What is missing from memory (a message begun before a failed batch was retried, blocks
// that arrived out of order) falls back to a read-back of the rows; a retried batch
// re-applies its Ops in order, so memory never holds what the database does not.
type OpenBodies map[Key]*OpenBody

// Key names a message of a store: its session's row id and its seq.
type Key struct{ SID, Seq int64 }

// OpenBody is the header and blocks of a message still streaming. Each block is its JSON;
// Partial marks a checkpoint of a block still streaming. Journaled says some of its blocks
// are in block rows, which ending the message deletes; Unwritten, that the message ends in
// the batch it began in, so its row is inserted only when it ends, whole.
type OpenBody struct {
	SessionID string
	Header    session.MessageHeader
	Blocks    [][]byte
	Partial   []bool
	Journaled bool
	Unwritten bool
}

// Begin starts the body of a message of session sid; unwritten says its row is not
// inserted yet.
func (o OpenBodies) Begin(sid int64, op session.BeginMessage, unwritten bool) {
	o[Key{SID: sid, Seq: op.Header.Seq}] = &OpenBody{SessionID: op.SessionID, Header: op.Header, Unwritten: unwritten}
}

// Put records block op of a message begun through o; journaled says it went to a block row.
func (o OpenBodies) Put(sid int64, op session.PutBlock, journaled bool) {
	b := o[Key{SID: sid, Seq: op.Seq}]
	if b == nil {
		return
	}
	b.Add(op.Index, op.JSON, op.Partial)
	b.Journaled = b.Journaled || journaled
}

// Add sets block index of b to json, partial or not, growing b's blocks with missing
// (nil, partial) ones up to it.
func (b *OpenBody) Add(index int, json []byte, partial bool) {
	for len(b.Blocks) <= index {
		b.Blocks, b.Partial = append(b.Blocks, nil), append(b.Partial, true)
	}
	b.Blocks[index], b.Partial[index] = json, partial
}

// Take removes message seq of session sid from o and returns what o held of it, nil when
// nothing.
func (o OpenBodies) Take(sid, seq int64) *OpenBody {
	key := Key{SID: sid, Seq: seq}
	b := o[key]
	delete(o, key)
	return b
}

// Forget drops the bodies of a session's messages that will not end in this process.
func (o OpenBodies) Forget(sid int64) {
	for key := range o {
		if key.SID == sid {
			delete(o, key)
		}
	}
}

// Message returns the message b makes with what op ends it with, its blocks as ASCII
// JSON; ok is false when b does not hold a whole message (a partial or missing block, or
// a record that is not a message).
func (b *OpenBody) Message(op session.EndMessage) (m session.StoredMessage, ok bool) {
	if b.Header.Role == "" {
		return m, false
	}
	for i := range b.Blocks {
		if b.Partial[i] || b.Blocks[i] == nil {
			return m, false
		}
	}
	h := b.Header
	m = session.StoredMessage{Seq: h.Seq, UUID: h.UUID, ParentUUID: h.ParentUUID, SessionID: b.SessionID, Type: h.Type,
		Role: h.Role, Turn: h.Turn, Status: op.Status, CreatedAt: truncatedToStored(h), Provider: h.Provider,
		RequestID: h.RequestID, IsSidechain: h.IsSidechain, Continues: h.Continues,
		Meta: JSONObject(op.Meta), Extra: JSONObject(op.Extra), Blocks: make([][]byte, len(b.Blocks))}
	for i, block := range b.Blocks {
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

// IsWholeRecord reports whether b, ending in the batch it began in, is a record that is
// not a message and holds no block: its row is its whole record (WholeRecordColumns).
func (b *OpenBody) IsWholeRecord() bool {
	return b.Unwritten && b.Header.Role == "" && len(b.Blocks) == 0
}

// truncatedToStored returns the header's time as the stores keep it, to the millisecond,
// so a body from memory and one read back are the same bytes.
func truncatedToStored(h session.MessageHeader) time.Time {
	return time.UnixMilli(h.CreatedAt.UnixMilli())
}
