package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// writeParts runs messages of the given sizes through a PartWriter and returns the parts
// it emitted, copied, handing back the buffer of the part before as a stream read does.
func writeParts(t *testing.T, size PartSize, sizes []int) []string {
	t.Helper()
	var parts []string
	var spare []byte
	p := NewPartWriter(nil, size, func(part []byte) ([]byte, error) {
		parts = append(parts, string(part))
		next := spare
		spare = part
		return next, nil
	})
	for i, n := range sizes {
		p.begin()
		p.buf = fmt.Appendf(p.buf, `"%d:%s"`, i, strings.Repeat("x", n))
		if err := p.ended(); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	return parts
}

func TestPartWriterKeepsPartsUnderMaxButForALargerMessage(t *testing.T) {
	sizes := []int{10, 500, 30, 2000, 90, 90, 90, 5000, 10, 700, 700, 700, 1, 1}
	size := PartSize{Flush: 1000, Max: 1500}
	parts := writeParts(t, size, sizes)
	items := make([][]string, len(parts))
	for i, part := range parts {
		if err := json.Unmarshal([]byte(part), &items[i]); err != nil {
			t.Fatalf("part %d is not a JSON array of strings: %v: %.80s", i, err, part)
		}
	}
	next := 0
	for i, part := range parts {
		if len(part) > size.Max && len(items[i]) > 1 {
			t.Errorf("part %d holds %d bytes in %d messages, more than Max %d", i, len(part), len(items[i]), size.Max)
		}
		// a part is emitted short of Flush only when the next message would take it past Max
		if i < len(parts)-1 && len(part) < size.Flush && len(part)+len(items[i+1][0])+3 <= size.Max {
			t.Errorf("part %d emitted at %d bytes, under Flush %d", i, len(part), size.Flush)
		}
		for _, it := range items[i] {
			want := fmt.Sprintf("%d:%s", next, strings.Repeat("x", sizes[next]))
			if it != want {
				t.Fatalf("part %d: message %d out of order or damaged: %.20s", i, next, it)
			}
			next++
		}
	}
	if next != len(sizes) {
		t.Fatalf("%d messages came back of %d", next, len(sizes))
	}
}

func TestPartWriterWholeIsOnePart(t *testing.T) {
	parts := writeParts(t, Whole, []int{10, 5000, 1})
	if len(parts) != 1 {
		t.Fatalf("%d parts, want 1", len(parts))
	}
	if empty := writeParts(t, PartSize{Flush: 10, Max: 10}, nil); len(empty) != 1 || empty[0] != "[]" {
		t.Fatalf("no messages gave %q, want one empty part", empty)
	}
}
