package transcript

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/sessionkeep/sessionkeep/session/bloom"
)

// Repeats learns, in a first reading of a file, which of its lines may occur more than once,
// so that the second reading counts the occurrences (Occurrences) of those alone: any other
// line's count is 0, and its synthetic uuid the same as when every line was counted. A file of
// gigabytes has millions of lines, and an Occurrences of every one of them grew without
// bound (20-40 bytes a line). A Bloom filter of the lines read so far, sized by the file's
// length, tells a line met before (or, now and then, one it only seems to have met); those
// are kept, a 16-byte hash each, and the filter goes once the first reading is done (Done).
type Repeats struct {
	filter *bloom.Filter
	maybe  map[[16]byte]struct{}
	noted  int // lines the first reading read
	asked  int // lines the second reading asked about
}

// Bits of the filter: one for every repeatsBytesPerBit bytes of the file, a power of two
// between minRepeatsBits and maxRepeatsBits (32 MB, some 9 bits a line for a rollout of 38 GB).
const (
	repeatsBytesPerBit = 32
	minRepeatsBits     = 1 << 16
	maxRepeatsBits     = 1 << 28
	repeatsProbes      = 6
)

// NewRepeats returns a Repeats for a file of fileBytes.
func NewRepeats(fileBytes int64) *Repeats {
	n := min(max(uint64(max(fileBytes, 0))/repeatsBytesPerBit, minRepeatsBits), maxRepeatsBits)
	return &Repeats{filter: bloom.New(n, repeatsProbes), maybe: map[[16]byte]struct{}{}}
}

// Note reads line in the first reading.
func (r *Repeats) Note(line []byte) {
	r.noted++
	key := lineKey(line)
	if r.filter.Add(binary.LittleEndian.Uint64(key[:8]), binary.LittleEndian.Uint64(key[8:])|1) {
		r.maybe[key] = struct{}{}
	}
}

// Done ends the first reading: the filter is no longer needed.
func (r *Repeats) Done() { r.filter = nil }

// MayRepeat reports whether line, the next of the second reading, may occur more than once
// in the file: false only for a line that occurs once. A line past those the first reading
// read (a file still being written) may.
func (r *Repeats) MayRepeat(line []byte) bool {
	if r.asked++; r.asked > r.noted {
		return true
	}
	if len(r.maybe) == 0 { // most rollouts: no line met twice, and no hash to take
		return false
	}
	_, ok := r.maybe[lineKey(line)]
	return ok
}

// lineKey is how Occurrences knows a line: half of its SHA-256.
func lineKey(line []byte) [16]byte {
	sum := sha256.Sum256(line)
	return [16]byte(sum[:16])
}
