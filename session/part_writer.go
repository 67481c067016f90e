package session

// PartSize bounds the parts a read is cut into (EncodeParts, the listing).
type PartSize struct {
	// Flush is how full a part is before it is emitted.
	Flush int
	// Max is the most a part holds: a message that would take a part past it starts the
	// next part, unless it is the part's first (a message larger than Max is a part alone).
	Max int
}

// Whole is the PartSize of a read that wants a single part.
var Whole = PartSize{Flush: int(^uint(0) >> 1), Max: int(^uint(0) >> 1)}

// PartWriter writes items (messages, listed sessions) into parts: JSON arrays of whole
// items, comma separated, handed to emit as each is full. Emit returns the buffer to write
// the next part into (nil for a new one; never the part it was handed).
type PartWriter struct {
	buf     []byte
	size    PartSize
	emit    func(part []byte) ([]byte, error)
	emitted bool
	mark    int // len(buf) before the message being written, its comma included
}

// NewPartWriter starts the first part in buf (nil for a new buffer).
func NewPartWriter(buf []byte, size PartSize, emit func(part []byte) ([]byte, error)) *PartWriter {
	if buf == nil {
		buf = make([]byte, 0, min(size.Flush, 64<<10))
	}
	return &PartWriter{buf: append(buf[:0], '['), size: size, emit: emit}
}

// Append writes one item, appended to the part by encode, and emits the part once the item
// fills it (see ended).
func (p *PartWriter) Append(encode func(buf []byte) []byte) error {
	p.begin()
	p.buf = encode(p.buf)
	return p.ended()
}

// begin marks where a message starts and writes the comma before it, if any.
func (p *PartWriter) begin() {
	p.mark = len(p.buf)
	if p.mark > 1 {
		p.buf = append(p.buf, ',')
	}
}

// ended emits the part once the message written since begin fills it. A message that took
// the part past Max moves to the next part first.
func (p *PartWriter) ended() error {
	if len(p.buf)+1 > p.size.Max && p.mark > 1 {
		full := p.buf
		// The part ends where the message's comma was; the message stays in full, which
		// emit's next buffer never is (it hands back another part's buffer, or nil).
		next, err := p.emit(append(full[:p.mark], ']'))
		p.emitted = true
		p.buf = append(append(fresh(next, cap(full)), '['), full[p.mark+1:]...)
		if err != nil {
			return err
		}
	}
	if len(p.buf) < p.size.Flush {
		return nil
	}
	return p.flush()
}

// flush emits the part and starts the next one.
func (p *PartWriter) flush() error {
	next, err := p.emit(append(p.buf, ']'))
	p.emitted = true
	p.buf = append(fresh(next, cap(p.buf)), '[')
	return err
}

// Finish emits the last part: the one open unless it is empty and another was emitted.
func (p *PartWriter) Finish() error {
	if len(p.buf) > 1 || !p.emitted {
		_, err := p.emit(append(p.buf, ']'))
		return err
	}
	return nil
}

// fresh is next emptied, or a new buffer of capacity c when emit handed none back.
func fresh(next []byte, c int) []byte {
	if next == nil {
		return make([]byte, 0, c)
	}
	return next[:0]
}
