package importing

import (
	"fmt"
	"testing"
)

func TestTheAddedFilterNeverMissesAUUIDAndRarelyClaimsOne(t *testing.T) {
	f := newAddedFilter(addedFilterMaxBytes)
	const added = 3 * firstFilterCapacity // two parts, both full
	for i := range added {
		f.add(fmt.Sprintf("added-%d", i))
	}
	for i := range added {
		if !f.mayHold(fmt.Sprintf("added-%d", i)) {
			t.Fatalf("uuid %d was added and the filter says it was not: the import would add it twice", i)
		}
	}
	claimed := 0
	const others = 200000
	for i := range others {
		if f.mayHold(fmt.Sprintf("other-%d", i)) {
			claimed++
		}
	}
	if rate := float64(claimed) / others; rate > 0.005 {
		t.Errorf("%d of %d uuids never added may be held (%.2f %%): the store is asked too often", claimed, others, 100*rate)
	}
	bytes := 0
	for _, p := range f.parts {
		bytes += p.Bytes()
	}
	if len(f.parts) != 2 || bytes > 2*added {
		t.Errorf("%d parts, %d bytes for %d uuids; want 2 parts of two bytes a uuid", len(f.parts), bytes, added)
	}
}

func TestTheAddedFilterStopsAtItsSize(t *testing.T) {
	f := newAddedFilter(3 * firstFilterCapacity * filterBitsPerUUID / 8) // room for two parts
	added := 0
	for f.add(fmt.Sprintf("u-%d", added)) {
		added++
	}
	if added != 3*firstFilterCapacity || f.bytes > f.maxBytes {
		t.Errorf("the filter took %d uuids in %d bytes; want %d, the two parts its %d bytes hold",
			added, f.bytes, 3*firstFilterCapacity, f.maxBytes)
	}
}
