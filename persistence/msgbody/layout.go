package msgbody

import (
	"encoding/binary"
	"errors"
)

// Layout locates the parts of a message's body: where its message object starts and
// each of its blocks.
type Layout struct {
	MessageAt int
	Blocks    []Span
}

// Span is one block of a body: body[At:At+N]. Bodies SQLite wrote before its migration 10
// could have a hole at At that blob Blob filled; that migration filled them all, so a
// reader finds a Blob only there, and a body that still has one is damaged.
type Span struct {
	At, N int
	Blob  int64
}

// ErrBadLayout is a layout that cannot be read or does not fit its body: the store is
// damaged.
var ErrBadLayout = errors.New("damaged message layout")

// Encode writes the layout as unsigned varints: MessageAt, the block count, and for each
// block its position, length and blob id (0 for none).
func (l Layout) Encode() []byte {
	b := make([]byte, 0, 4+len(l.Blocks)*6)
	b = binary.AppendUvarint(b, uint64(l.MessageAt))
	b = binary.AppendUvarint(b, uint64(len(l.Blocks)))
	for _, s := range l.Blocks {
		b = binary.AppendUvarint(b, uint64(s.At))
		b = binary.AppendUvarint(b, uint64(s.N))
		b = binary.AppendUvarint(b, uint64(s.Blob))
	}
	return b
}

// DecodeLayout reads a layout written by Encode, reusing spans' storage, and checks it
// against a body of bodyLen bytes.
func DecodeLayout(b []byte, bodyLen int, spans []Span) (Layout, error) {
	next := func() int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > 1<<40 {
			b = nil
			return -1
		}
		b = b[n:]
		return int(v)
	}
	l := Layout{MessageAt: next()}
	count := next()
	if l.MessageAt < 0 || l.MessageAt >= bodyLen || count < 0 || count > len(b) {
		return l, ErrBadLayout
	}
	l.Blocks = spans[:0]
	prev := l.MessageAt
	for i := 0; i < count; i++ {
		s := Span{At: next(), N: next()}
		s.Blob = int64(next())
		if s.At < prev || s.N < 0 || s.Blob < 0 || s.At+s.N > bodyLen {
			return l, ErrBadLayout
		}
		prev = s.At + s.N
		l.Blocks = append(l.Blocks, s)
	}
	return l, nil
}

// HasHole reports whether a block of l is a hole a blob filled (Span.Blob).
func (l Layout) HasHole() bool {
	for _, s := range l.Blocks {
		if s.Blob != 0 {
			return true
		}
	}
	return false
}

// BlocksOf appends to blocks the JSON of each block of body, whose layout is l, slices of
// body. A hole (Span.Blob) is a damaged store: ErrBadLayout.
func BlocksOf(body []byte, l Layout, blocks [][]byte) ([][]byte, error) {
	for _, span := range l.Blocks {
		if span.Blob != 0 {
			return blocks, ErrBadLayout
		}
		blocks = append(blocks, body[span.At:span.At+span.N])
	}
	return blocks, nil
}
