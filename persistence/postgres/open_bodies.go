package postgres

import (
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// openBodies holds, for each message the writer has begun and not yet ended, its header and
// blocks as the writer stored them, so that ending it encodes its body from memory, in the
// statement that ends it, instead of reading its block rows back. A batch that fails is
// applied again in order, so memory never holds what the database does not.
type openBodies map[messageKey]*openBody

// openBody is the header and blocks of a message still streaming; partial marks a
// checkpoint of a block still streaming.
type openBody struct {
	sessionID string
	header    session.MessageHeader
	blocks    [][]byte
	partial   []bool
}

// begin starts the body of a message.
func (o openBodies) begin(sid int64, op session.BeginMessage) {
	o[messageKey{sid, op.Header.Seq}] = &openBody{sessionID: op.SessionID, header: op.Header}
}

// put records a block of a message begun through o, and reports whether it was one.
func (o openBodies) put(sid int64, op session.PutBlock) bool {
	b := o[messageKey{sid, op.Seq}]
	if b == nil || op.Index < 0 {
		return false
	}
	for len(b.blocks) <= op.Index {
		b.blocks, b.partial = append(b.blocks, nil), append(b.partial, true)
	}
	b.blocks[op.Index], b.partial[op.Index] = op.JSON, op.Partial
	return true
}

// take removes a message from o and returns what o held of it, nil when nothing.
func (o openBodies) take(key messageKey) *openBody {
	b := o[key]
	delete(o, key)
	return b
}

// forget drops the bodies of a session's messages that will not end in this process.
func (o openBodies) forget(sid int64) {
	for key := range o {
		if key.sid == sid {
			delete(o, key)
		}
	}
}

// message returns the message b makes with what op ends it with; ok is false when b holds
// no whole message (a partial or missing block, no block, or a record that is not a
// message), which keeps its block rows instead of a body.
func (b *openBody) message(op session.EndMessage) (m session.StoredMessage, ok bool) {
	if b.header.Role == "" || len(b.blocks) == 0 {
		return m, false
	}
	for i := range b.blocks {
		if b.partial[i] || b.blocks[i] == nil {
			return m, false
		}
	}
	h := b.header
	return session.StoredMessage{Seq: h.Seq, UUID: h.UUID, ParentUUID: h.ParentUUID, SessionID: b.sessionID, Type: h.Type,
		Role: h.Role, Turn: h.Turn, Status: op.Status, CreatedAt: time.UnixMilli(h.CreatedAt.UnixMilli()), Provider: h.Provider,
		RequestID: h.RequestID, IsSidechain: h.IsSidechain, Continues: h.Continues,
		Meta: jsonObject(op.Meta), Extra: jsonObject(op.Extra), Blocks: b.blocks}, true
}

// completeBlocks returns the blocks of b that are complete.
func (b *openBody) completeBlocks() [][]byte {
	var blocks [][]byte
	for i, block := range b.blocks {
		if block != nil && !b.partial[i] {
			blocks = append(blocks, block)
		}
	}
	return blocks
}
