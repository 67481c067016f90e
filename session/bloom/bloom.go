// Package bloom is a Bloom filter over hashes the caller computes: a set that answers "maybe"
// or "no" in a fixed number of bits, with no false negatives. The importer keeps one of the
// uuids it added (session/importing) and one of a file's lines (persistence/transcript), where a
// set of the values themselves would grow with a file of gigabytes.
package bloom

// Filter is a Bloom filter of 2^k bits. A value is known by two 64-bit hashes h1 and h2, and
// sets the bits h1 + i*h2 for i below its probes (double hashing): h2 must be odd, so that the
// probes of a value differ from each other whatever the size.
type Filter struct {
	words  []uint64
	mask   uint64
	probes uint64
}

// New returns an empty Filter of at least bits bits (rounded up to a power of two, 64 at the
// least) that sets probes bits a value.
func New(bits uint64, probes int) *Filter {
	size := uint64(64)
	for size < bits {
		size *= 2
	}
	return &Filter{words: make([]uint64, size/64), mask: size - 1, probes: uint64(probes)}
}

// Bytes is the memory the filter's bits take.
func (f *Filter) Bytes() int { return 8 * len(f.words) }

// Add sets the value's bits, and reports whether all of them were set already: the value may
// have been added before (true) or was not (false).
func (f *Filter) Add(h1, h2 uint64) (seen bool) {
	seen = true
	for i := range f.probes {
		bit := (h1 + i*h2) & f.mask
		if f.words[bit/64]&(1<<(bit%64)) == 0 {
			seen = false
			f.words[bit/64] |= 1 << (bit % 64)
		}
	}
	return seen
}

// Has reports whether the value may have been added: false only for one that was not.
func (f *Filter) Has(h1, h2 uint64) bool {
	for i := range f.probes {
		bit := (h1 + i*h2) & f.mask
		if f.words[bit/64]&(1<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}
