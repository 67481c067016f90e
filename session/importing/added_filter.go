package importing

import (
	"hash/maphash"

	"github.com/sessionkeep/sessionkeep/session/bloom"
)

// addedFilter is a Bloom filter of the uuids an import added to a session that held nothing
// before it. A uuid it has not seen is not held, so only the few it may have seen (a record
// met twice in the file, or a false positive, about one in two thousand a part) are asked of the
// store; asking for every uuid of every batch made the second gigabyte of a rollout a
// quarter slower than the first, as the index outgrew the cache. It keeps two to four bytes
// a uuid, where a set of them kept 16 to 50, and at most maxBytes: an import past that many
// uuids (16.7 million at addedFilterMaxBytes) asks the store for every uuid instead.
type addedFilter struct {
	parts    []bloomPart
	seeds    [2]maphash.Seed
	bytes    int // the parts' bits
	maxBytes int
}

// addedFilterMaxBytes is how much an import's addedFilter may hold.
const addedFilterMaxBytes = 32 << 20

// bloomPart is one filter of addedFilter, made for capacity uuids; when it is full, the next
// is made twice its size, so that the filter follows the file without knowing its length.
type bloomPart struct {
	*bloom.Filter
	n, capacity int
}

const (
	filterBitsPerUUID   = 16 // with filterProbes, a false positive in about 2,170 (per part)
	filterProbes        = 11
	firstFilterCapacity = 1 << 16
)

func newAddedFilter(maxBytes int) *addedFilter {
	return &addedFilter{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, maxBytes: maxBytes}
}

// add notes uuid as added, and reports false when it cannot: the filter is full (maxBytes),
// and from then on only the store knows what was added.
func (f *addedFilter) add(uuid string) bool {
	if len(f.parts) == 0 || f.parts[len(f.parts)-1].n >= f.parts[len(f.parts)-1].capacity {
		capacity := firstFilterCapacity
		if len(f.parts) > 0 {
			capacity = 2 * f.parts[len(f.parts)-1].capacity
		}
		part := bloomPart{Filter: bloom.New(uint64(capacity*filterBitsPerUUID), filterProbes), capacity: capacity}
		if f.bytes+part.Bytes() > f.maxBytes {
			return false
		}
		f.parts, f.bytes = append(f.parts, part), f.bytes+part.Bytes()
	}
	p := &f.parts[len(f.parts)-1]
	p.Add(f.hashes(uuid))
	p.n++
	return true
}

// mayHold reports whether uuid may have been added: false only for one that was not.
func (f *addedFilter) mayHold(uuid string) bool {
	h1, h2 := f.hashes(uuid)
	for i := range f.parts {
		if f.parts[i].Has(h1, h2) {
			return true
		}
	}
	return false
}

// hashes returns the two hashes of uuid whose combinations pick its bits.
func (f *addedFilter) hashes(uuid string) (h1, h2 uint64) {
	return maphash.String(f.seeds[0], uuid), maphash.String(f.seeds[1], uuid) | 1
}
