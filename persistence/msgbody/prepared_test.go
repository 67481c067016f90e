package msgbody

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestOnlyARecordWholeInOneApplyIsPrepared: a record is prepared when its BeginMessage,
// its blocks in order and its imported EndMessage come in one Apply; one split over two
// Applies, with a partial block or blocks out of order, or a live message's, is left to
// the writer; the caller's slice is never changed.
func TestOnlyARecordWholeInOneApplyIsPrepared(t *testing.T) {
	const sid = "s"
	begin := session.BeginMessage{SessionID: sid, Header: session.MessageHeader{
		Seq: 3, UUID: "u3", Type: session.TypeUser, Role: "user", CreatedAt: time.UnixMilli(1_700_000_000_000)}}
	block := func(i int, json string) session.PutBlock {
		return session.PutBlock{SessionID: sid, Seq: 3, Index: i, JSON: []byte(json)}
	}
	b0, b1 := block(0, `{"type":"text","text":"hello"}`), block(1, `{"type":"text","text":"again"}`)
	end := session.EndMessage{SessionID: sid, Seq: 3, Status: session.MessageComplete, Imported: true}
	live := end
	live.Imported = false
	partial := b1
	partial.Partial = true
	notMessage := begin
	notMessage.Header.Role, notMessage.Header.Type = "", "system"

	for name, c := range map[string]struct {
		ops  []session.Op
		want bool
	}{
		"whole":                        {[]session.Op{begin, b0, b1, end}, true},
		"a record that is not message": {[]session.Op{notMessage, end}, true},
		"begun in another Apply":       {[]session.Op{b0, b1, end}, false},
		"ended in another Apply":       {[]session.Op{begin, b0, b1}, false},
		"a partial block":              {[]session.Op{begin, b0, partial, end}, false},
		"blocks out of order":          {[]session.Op{begin, b1, b0, end}, false},
		"a live message":               {[]session.Op{begin, b0, b1, live}, false},
	} {
		out := PrepareImported(c.ops)
		got := false
		for i, op := range out {
			if e, ok := op.(session.EndMessage); ok && Prepared(e) != nil {
				got = true
				if Prepared(c.ops[i].(session.EndMessage)) != nil {
					t.Errorf("%s: the caller's EndMessage was changed", name)
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: prepared %v, want %v", name, got, c.want)
		}
	}
}
