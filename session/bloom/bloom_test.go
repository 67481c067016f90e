package bloom

import (
	"math/rand/v2"
	"testing"
)

func TestAFilterHasEveryValueAddedAndFewOthers(t *testing.T) {
	const n = 50_000
	f := New(16*n, 11)
	r := rand.New(rand.NewPCG(1, 2))
	added := make([][2]uint64, n)
	for i := range added {
		added[i] = [2]uint64{r.Uint64(), r.Uint64() | 1}
		f.Add(added[i][0], added[i][1])
	}
	for _, h := range added {
		if !f.Has(h[0], h[1]) {
			t.Fatalf("a value added is not had: %v", h)
		}
	}
	falsePositives := 0
	for range n {
		if f.Has(r.Uint64(), r.Uint64()|1) {
			falsePositives++
		}
	}
	if rate := float64(falsePositives) / n; rate > 0.005 {
		t.Fatalf("false-positive rate %.4f, want under 0.005 at 16 bits a value", rate)
	}
}

func TestAddSaysWhetherAValueMayHaveBeenAddedBefore(t *testing.T) {
	f := New(1<<16, 6)
	if f.Add(12345, 678911) {
		t.Fatal("the first Add of a value into an empty filter said it was seen")
	}
	if !f.Add(12345, 678911) {
		t.Fatal("the second Add of the same value said it was not seen")
	}
}

func TestNewRoundsBitsUpToAPowerOfTwo(t *testing.T) {
	for _, c := range []struct {
		bits  uint64
		bytes int
	}{{0, 8}, {64, 8}, {65, 16}, {1000, 128}, {1 << 20, 1 << 17}} {
		if got := New(c.bits, 1).Bytes(); got != c.bytes {
			t.Errorf("New(%d).Bytes() = %d, want %d", c.bits, got, c.bytes)
		}
	}
}
