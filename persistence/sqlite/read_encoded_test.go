package sqlite

import (
	"fmt"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestLongScanLetsGoOfItsSnapshot: a scan that reads for longer than snapshotHold goes on
// in a new statement, so a message committed while its reader is slow is read too, which
// one read transaction could not see, and every message comes once, in order.
func TestLongScanLetsGoOfItsSnapshot(t *testing.T) {
	s, _ := openTemp(t)
	complete := func(seq int64) []session.Op {
		return []session.Op{begin("s1", seq),
			session.PutBlock{SessionID: "s1", Seq: seq, Index: 0, JSON: []byte(fmt.Sprintf(`{"type":"text","text":"message %d"}`, seq))},
			session.EndMessage{SessionID: "s1", Seq: seq, Status: session.MessageComplete}}
	}
	s.Apply(session.CreateSession{Info: newInfo("s1")})
	for seq := int64(0); seq < 5; seq++ {
		s.Apply(complete(seq)...)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	written := int64(5)
	for _, hold := range []time.Duration{time.Hour, 0} {
		t.Run(hold.String(), func(t *testing.T) {
			defer func(was time.Duration) { snapshotHold = was }(snapshotHold)
			snapshotHold = hold
			var seqs []int64
			err := s.ScanEncoded("s1", 0, func(m *session.StoredMessage) error {
				seqs = append(seqs, m.Seq)
				if m.Seq == 2 { // the reader is slow here: the writer commits meanwhile
					s.Apply(complete(written)...)
					written++
					return s.Sync()
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := []int64{0, 1, 2, 3, 4}
			if hold == 0 { // message 5, written during the first scan, and 6, during this one
				want = append(want, 5, 6)
			}
			if fmt.Sprint(seqs) != fmt.Sprint(want) {
				t.Errorf("snapshotHold %v: read seqs %v, want %v", hold, seqs, want)
			}
		})
	}
}
