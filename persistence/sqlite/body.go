package sqlite

import (
	"encoding/binary"
	"errors"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// A complete message is stored as its body and nothing else: the envelope JSON, encoded
// once when the message ends, ASCII only (jsonenc.AppendASCII), so that reading a session
// back is a copy of one column per message and not a join over its blocks. Block rows are
// a journal of what is still streaming (the durability bound holds mid-message); the
// writer drops them when the message ends, or never writes them when it ends in the batch
// it began in (migration 10). Every block is inside the body, large ones too: the blob
// table's hash lookup and row cost W1 more than sharing a payload saved (bench/README.md).
// The layout column says where the message object and each block are in the body.

// layout locates the parts of a message's body.
type layout struct {
	messageAt int
	blocks    []blockSpan
}

// blockSpan is one block of a body: body[at:at+n]. Bodies written before migration 10
// could have a hole at position at that blob filled; the migration filled them all, so a
// blob is read only there (fillHoles).
type blockSpan struct {
	at, n int
	blob  int64
}

// errBadLayout is a layout column that cannot be read: the file is damaged.
var errBadLayout = errors.New("damaged message layout")

// encode writes the layout as unsigned varints: messageAt, the block count, and for each
// block its position, length and blob id (0 for none).
func (l layout) encode() []byte {
	b := make([]byte, 0, 4+len(l.blocks)*6)
	b = binary.AppendUvarint(b, uint64(l.messageAt))
	b = binary.AppendUvarint(b, uint64(len(l.blocks)))
	for _, s := range l.blocks {
		b = binary.AppendUvarint(b, uint64(s.at))
		b = binary.AppendUvarint(b, uint64(s.n))
		b = binary.AppendUvarint(b, uint64(s.blob))
	}
	return b
}

// decodeLayout reads a layout written by encode, reusing spans' storage, and checks it
// against a body of bodyLen bytes.
func decodeLayout(b []byte, bodyLen int, spans []blockSpan) (layout, error) {
	next := func() int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > 1<<40 {
			b = nil
			return -1
		}
		b = b[n:]
		return int(v)
	}
	l := layout{messageAt: next()}
	count := next()
	if l.messageAt < 0 || l.messageAt >= bodyLen || count < 0 || count > len(b) {
		return l, errBadLayout
	}
	l.blocks = spans[:0]
	prev := l.messageAt
	for i := 0; i < count; i++ {
		s := blockSpan{at: next(), n: next()}
		s.blob = int64(next())
		if s.at < prev || s.n < 0 || s.blob < 0 || s.at+s.n > bodyLen {
			return l, errBadLayout
		}
		prev = s.at + s.n
		l.blocks = append(l.blocks, s)
	}
	return l, nil
}

// bodyBuilder encodes the bodies of the messages a batch ends, reusing its buffers: what
// it returns is good until its next call.
type bodyBuilder struct {
	buf    []byte
	packed []byte
}

// build encodes m, whose blocks are ASCII JSON, as a body in its stored form (bodycodec.Pack,
// or bodycodec.PackImported for an imported record), the layout of the body unpacked as stored,
// and that layout itself, which the caller reads the body's fields by (storedMeta,
// storedExtra) without decoding it again.
func (bb *bodyBuilder) build(m *session.StoredMessage, imported bool) ([]byte, []byte, layout) {
	head, at := session.AppendEnvelopeHead(nil, m)
	buf := jsonenc.AppendASCII(bb.buf[:0], head)
	l := layout{messageAt: at + asciiGrowth(head[:at]), blocks: make([]blockSpan, len(m.Blocks))}
	for i, block := range m.Blocks {
		if i > 0 {
			buf = append(buf, ',')
		}
		l.blocks[i].at = len(buf)
		buf = append(buf, block...)
		l.blocks[i].n = len(block)
	}
	buf = jsonenc.AppendASCII(buf, session.AppendMessageTail(nil, m))
	buf = append(buf, '}')
	bb.buf = buf
	if !imported {
		return bb.stored(buf, bodycodec.LivePackAbove), l.encode(), l
	}
	return bb.storedImported(buf), l.encode(), l
}

// plain returns the body that the last build encoded, before packing: what the extra
// column is compared with (storedExtra).
func (bb *bodyBuilder) plain() []byte { return bb.buf }

// stored returns body in its stored form (bodycodec.Pack, packed when over above bytes).
func (bb *bodyBuilder) stored(body []byte, above int) []byte {
	return bb.keepPacked(bodycodec.Pack(bb.packed, body, above))
}

// storedImported returns body in an imported record's stored form (bodycodec.PackImported).
func (bb *bodyBuilder) storedImported(body []byte) []byte {
	return bb.keepPacked(bodycodec.PackImported(bb.packed, body))
}

// keepPacked keeps the storage of stored, when it is packed, for the next body to be
// packed into, and returns it.
func (bb *bodyBuilder) keepPacked(stored []byte) []byte {
	if bodycodec.IsPacked(stored) {
		bb.packed = stored
	}
	return stored
}

// asciiGrowth returns how many bytes longer b becomes through jsonenc.AppendASCII.
func asciiGrowth(b []byte) int {
	if jsonenc.IsASCII(b) {
		return 0
	}
	return len(jsonenc.AppendASCII(nil, b)) - len(b)
}

// blocksOf appends to blocks the JSON of each block of a body written since migration 10,
// whose layout is l, slices of body. A hole (a body of an older store the migration missed)
// is a damaged file.
func blocksOf(body []byte, l layout, blocks [][]byte) ([][]byte, error) {
	for _, span := range l.blocks {
		if span.blob != 0 {
			return blocks, errBadLayout
		}
		blocks = append(blocks, body[span.at:span.at+span.n])
	}
	return blocks, nil
}
