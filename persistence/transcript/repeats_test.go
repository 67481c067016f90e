package transcript

import (
	"fmt"
	"testing"
)

func TestRepeatsNameEveryLineThatOccursTwice(t *testing.T) {
	for _, fileBytes := range []int64{0, 1 << 30} { // the smallest filter, often wrong; a large one
		r := NewRepeats(fileBytes)
		const lines = 100000
		for i := range lines {
			r.Note(fmt.Appendf(nil, `{"line":%d}`, i))
			if i%1000 == 0 {
				r.Note(fmt.Appendf(nil, `{"again":%d}`, i/1000))
			}
		}
		for i := range lines / 1000 { // each again-line once more, far from the first
			r.Note(fmt.Appendf(nil, `{"again":%d}`, i))
		}
		r.Done()
		for i := range lines / 1000 {
			if !r.MayRepeat(fmt.Appendf(nil, `{"again":%d}`, i)) {
				t.Fatalf("filter of %d bytes' file: a line that occurs twice is taken to occur once: its second copy would get the first's uuid", fileBytes)
			}
		}
		claimed := 0
		for i := range lines {
			if r.MayRepeat(fmt.Appendf(nil, `{"line":%d}`, i)) {
				claimed++
			}
		}
		if fileBytes > 0 && claimed > lines/1000 {
			t.Errorf("%d of %d lines that occur once are kept as may-repeat with a filter for a 1 GB file", claimed, lines)
		}
	}
}

func TestALineTheFirstReadingDidNotSeeMayRepeat(t *testing.T) {
	r := NewRepeats(1 << 20)
	r.Note([]byte(`{"a":1}`))
	r.Done()
	if r.MayRepeat([]byte(`{"a":1}`)) {
		t.Error("the one line the first reading saw once may repeat")
	}
	if !r.MayRepeat([]byte(`{"a":1}`)) {
		t.Error("a line appended after the first reading, identical to one before it, is taken to occur once: it would get that line's uuid")
	}
}
