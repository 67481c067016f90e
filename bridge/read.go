package bridge

import (
	"sync"

	"github.com/sessionkeep/sessionkeep/native"
	"github.com/sessionkeep/sessionkeep/session"
)

// v8RegularObjectMax is below the size at which V8 allocates an object on its own in large
// object space (kMaxRegularHeapObjectSize, 128 KB), string header included. A part larger
// than that costs fresh pages each time: the 197 KB string of a 20-message tail took
// 0.15 ms to make right after a full GC, against 0.03 ms for the same bytes in parts under
// 128 KB (bench/README.md, round 5).
const v8RegularObjectMax = 127 << 10

// partSize is how much JSON crosses to JavaScript at once when messages are read
// synchronously: each part is a JSON array that JSON.parse takes in a fraction of a
// millisecond, filled up to the size V8 still makes in its young generation.
var partSize = session.PartSize{Flush: v8RegularObjectMax, Max: v8RegularObjectMax}

// streamPartSize is partSize for async reads, which hand the event loop back between parts.
// Smaller parts cut the event-loop delay of an async restore: with V8 scavenging the parsed
// objects, the 20,000-message restore's p99 was 9.0 ms at 64 KB against 15.9 ms at 256 KB
// (main), 14.1 ms at 128 KB and 11.1 ms at 32 KB, interleaved on a loaded machine, five
// rounds each. Each part is a round trip (the JS thread waits for the next part's wake-ups):
// at 64 KB the restore's wall time is a few to 13 % above 256 KB's, at 32 KB more
// (bench/README.md, round 4).
var streamPartSize = session.PartSize{Flush: 64 << 10, Max: v8RegularObjectMax}

// partBuffers hold the buffers that parts are encoded into and copied out of into
// JavaScript strings, for the next read: a tail of 20 messages (192 KB) spent a third of
// its Go time growing a new buffer from 64 KB and collecting it after, and a listing of
// 1,000 sessions in three parts made two new 127 KB buffers a call. Each entry is the
// buffers of one read's parts, in order.
var partBuffers = sync.Pool{New: func() any { return new([][]byte) }}

// maxPooledPart is the largest buffer kept for the next read: a part holding one very
// large message is left to the collector rather than held.
const maxPooledPart = 1 << 20

// maxPooledParts is how many buffers of one read are kept: enough for a short tail (two
// parts) and W4's listing (three); the hundred parts of a whole long session read at once
// are left to the collector rather than held.
const maxPooledParts = 4

// readSync encodes the last n messages of s (all when n < 0) and returns them as a
// JavaScript array of ASCII JSON strings, each an array of messages.
func readSync(c *native.Call, s *session.Session, withEnvelope bool, n int) (native.Value, error) {
	return encodeSync(c, func(first []byte, emit func(part []byte) ([]byte, error)) error {
		return s.EncodeParts(withEnvelope, n, partSize, first, emit)
	})
}

// encodeSync runs encode, which writes its first part into the buffer it is given and
// hands every part to emit, and returns the parts as a JavaScript array of ASCII strings.
// The parts' buffers are kept for the next sync read.
func encodeSync(c *native.Call, encode func(first []byte, emit func(part []byte) ([]byte, error)) error) (native.Value, error) {
	kept := partBuffers.Get().(*[][]byte)
	spare := *kept
	var parts [][]byte
	next := func() []byte {
		if len(parts) >= len(spare) {
			return nil
		}
		return spare[len(parts)]
	}
	err := encode(next(), func(part []byte) ([]byte, error) {
		parts = append(parts, part)
		return next(), nil
	})
	if err != nil {
		partBuffers.Put(kept)
		return native.Value{}, err
	}
	v := c.StringsFromASCII(parts) // copies: the parts' buffers are free again
	*kept = keep(spare[:0], parts)
	partBuffers.Put(kept)
	return v, nil
}

// keep appends to bufs the buffers of parts no larger than maxPooledPart, emptied, up to
// maxPooledParts of them.
func keep(bufs, parts [][]byte) [][]byte {
	for _, p := range parts {
		if len(bufs) == maxPooledParts {
			break
		}
		if cap(p) <= maxPooledPart {
			bufs = append(bufs, p[:0])
		}
	}
	return bufs
}

// readStream encodes the last n messages of s (all when n < 0) off the JS thread and
// passes each part, an ASCII JSON string, to onPart; the Promise it returns settles when
// every part has been passed. While JavaScript parses one part, the next is encoded.
func readStream(c *native.Call, s *session.Session, withEnvelope bool, n int, onPart native.Value) (native.Value, error) {
	return c.Stream(onPart, func(emit func(native.Settler) error) error {
		var spare []byte // the part before the last, taken by JavaScript once emit returns
		return s.EncodeParts(withEnvelope, n, streamPartSize, nil, func(part []byte) ([]byte, error) {
			err := emit(func(sc *native.Scope) (native.Value, error) { return sc.StringFromASCII(part), nil })
			next := spare
			spare = part
			return next, err
		})
	})
}
