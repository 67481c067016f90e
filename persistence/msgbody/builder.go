package msgbody

import (
	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

// Builder encodes the bodies of the messages a batch ends, reusing its buffers: what it
// returns is good until its next call. The zero Builder is ready to use.
type Builder struct {
	buf    []byte
	packed []byte
}

// Build encodes m, whose blocks are ASCII JSON, as a body in its stored form
// (bodycodec.Pack over bodycodec.LivePackAbove, or bodycodec.PackImported for an imported
// record), the layout of the body unpacked as stored, encoded, and that layout itself,
// which the caller reads the body's fields by (StoredMeta, StoredExtra over Plain) without
// decoding it again.
func (bb *Builder) Build(m *session.StoredMessage, imported bool) (stored, lay []byte, l Layout) {
	plain, lay, l := bb.BuildPlain(m)
	if !imported {
		return bb.stored(plain, bodycodec.LivePackAbove), lay, l
	}
	return bb.storedImported(plain), lay, l
}

// BuildPlain encodes m as Build does but leaves the body unpacked (Plain), for a store
// whose column compresses what it holds itself (PostgreSQL's lz4).
func (bb *Builder) BuildPlain(m *session.StoredMessage) (body, lay []byte, l Layout) {
	head, at := session.AppendEnvelopeHead(nil, m)
	buf := jsonenc.AppendASCII(bb.buf[:0], head)
	l = Layout{MessageAt: at + asciiGrowth(head[:at]), Blocks: make([]Span, len(m.Blocks))}
	for i, block := range m.Blocks {
		if i > 0 {
			buf = append(buf, ',')
		}
		l.Blocks[i].At = len(buf)
		buf = append(buf, block...)
		l.Blocks[i].N = len(block)
	}
	buf = jsonenc.AppendASCII(buf, session.AppendMessageTail(nil, m))
	buf = append(buf, '}')
	bb.buf = buf
	return buf, l.Encode(), l
}

// Plain returns the body that the last Build encoded, before packing: what the meta and
// extra columns are compared with (StoredMeta, StoredExtra).
func (bb *Builder) Plain() []byte { return bb.buf }

// StoredLike returns body, a copy of the stored body orig with a change (a fork's
// session id: Renamed), in orig's stored form, whoever wrote orig: packed with the
// import's dictionary when orig was, so that a fork of an imported session keeps its size;
// packed with s2 when orig was; plain when orig was.
func (bb *Builder) StoredLike(body, orig []byte) []byte {
	switch {
	case bodycodec.IsDictPacked(orig):
		return bb.storedImported(body)
	case bodycodec.IsPacked(orig):
		return bb.stored(body, 0)
	default:
		return body
	}
}

// stored returns body in its stored form (bodycodec.Pack, packed when over above bytes).
func (bb *Builder) stored(body []byte, above int) []byte {
	return bb.keepPacked(bodycodec.Pack(bb.packed, body, above))
}

// storedImported returns body in an imported record's stored form (bodycodec.PackImported).
func (bb *Builder) storedImported(body []byte) []byte {
	return bb.keepPacked(bodycodec.PackImported(bb.packed, body))
}

// keepPacked keeps the storage of stored, when it is packed, for the next body to be
// packed into, and returns it.
func (bb *Builder) keepPacked(stored []byte) []byte {
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
