package sqlite

import (
	"encoding/binary"
	"errors"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// A complete message is stored as its body: the envelope JSON, encoded once when the
// message ends, ASCII only (jsonenc.AppendASCII), so that reading a session back is a copy
// of one column per message and not a join over its blocks. A block over BlobThreshold is
// not in the body: it stays in the blob table (stored once by content hash), and the body
// has a hole where it goes. The layout column says where the message object and each block
// are in the body, and which blob fills each hole.

// layout locates the parts of a message's body.
type layout struct {
	messageAt int
	blocks    []blockSpan
}

// blockSpan is one block of a body: body[at:at+n], or, when blob is set, the blob's data
// at position at (a hole).
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

// bodyBuilder encodes the bodies of the messages a batch ends.
type bodyBuilder struct {
	buf []byte
}

// build encodes m, whose blocks are ASCII JSON, as a body and its layout. holes[i] is the
// blob id of block i when it is stored as a blob (0 when it is not): the body has a hole
// there.
func (bb *bodyBuilder) build(m *session.StoredMessage, holes []int64) ([]byte, []byte) {
	head, at := session.AppendEnvelopeHead(nil, m)
	buf := jsonenc.AppendASCII(bb.buf[:0], head)
	l := layout{messageAt: at + asciiGrowth(head[:at]), blocks: make([]blockSpan, len(m.Blocks))}
	for i, block := range m.Blocks {
		if i > 0 {
			buf = append(buf, ',')
		}
		l.blocks[i].at = len(buf)
		if holes[i] != 0 {
			l.blocks[i].blob = holes[i]
			continue
		}
		buf = append(buf, block...)
		l.blocks[i].n = len(block)
	}
	buf = jsonenc.AppendASCII(buf, session.AppendMessageTail(nil, m))
	buf = append(buf, '}')
	bb.buf = buf
	return buf, l.encode()
}

// asciiGrowth returns how many bytes longer b becomes through jsonenc.AppendASCII.
func asciiGrowth(b []byte) int {
	if jsonenc.IsASCII(b) {
		return 0
	}
	return len(jsonenc.AppendASCII(nil, b)) - len(b)
}
