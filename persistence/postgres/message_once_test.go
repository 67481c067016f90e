package postgres

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestEndingWhole picks the messages inserted whole: begun, their own blocks, ended; not one
// another message of its session began inside (a subagent's record interleaved, whose
// parent must be stored first), nor one an Op that stores the gathered blocks cut.
func TestEndingWhole(t *testing.T) {
	begin := func(id string, seq int64) session.Op {
		return session.BeginMessage{SessionID: id, Header: session.MessageHeader{Seq: seq}}
	}
	put := func(id string, seq int64) session.Op { return session.PutBlock{SessionID: id, Seq: seq} }
	end := func(id string, seq int64) session.Op { return session.EndMessage{SessionID: id, Seq: seq} }
	batch := []session.Op{
		begin("a", 0), put("a", 0), put("a", 0), end("a", 0), // whole
		begin("a", 1), begin("a", 2), put("a", 2), end("a", 2), put("a", 1), end("a", 1), // 2 whole, 1 not
		begin("b", 0), put("b", 0), begin("c", 0), end("b", 0), // whole: c's is another session
		begin("c", 1), put("c", 1), session.DeleteSession{SessionID: "x"}, end("c", 1), // cut
		begin("d", 0), session.SetTitle{SessionID: "d", Title: "t"}, end("d", 0), // whole
		put("e", 3), end("e", 3), // begun in an earlier batch
	}
	got := endingWhole(batch)
	want := map[batchMessage]bool{{"a", 0}: true, {"a", 2}: true, {"b", 0}: true, {"d", 0}: true}
	if len(got) != len(want) {
		t.Errorf("endingWhole = %v, want %v", got, want)
	}
	for m := range want {
		if !got[m] {
			t.Errorf("message %v is not inserted whole; endingWhole = %v", m, got)
		}
	}
}
