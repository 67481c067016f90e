package commitqueue

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestRecordsThrough counts through the last Op a read of records waits for.
func TestRecordsThrough(t *testing.T) {
	access, closed := session.AccessSession{SessionID: "a"}, session.CloseSession{SessionID: "a"}
	title := session.SetTitle{SessionID: "a", Title: "t"}
	for _, c := range []struct {
		ops     []session.Op
		through uint64
		ok      bool
	}{
		{[]session.Op{access, closed}, 0, false},
		{[]session.Op{title, access, closed}, 11, true},
		{[]session.Op{access, title}, 12, true},
		{nil, 0, false},
	} {
		through, ok := RecordsThrough(10, c.ops)
		if through != c.through || ok != c.ok {
			t.Errorf("RecordsThrough(10, %T...) = %d, %v; want %d, %v", c.ops, through, ok, c.through, c.ok)
		}
	}
}
