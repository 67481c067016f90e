package sqlite

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// bodyWays are the sessions a test of what a body holds writes each case into, by the text
// of the case's one block: a message that ends in its batch ("whole") or streams (its end
// in a later batch), its body plain or, from a text large enough, packed.
var bodyWays = map[string]string{"whole": "hi", "streamed": "hi",
	"whole, packed": strings.Repeat("a large tool output ", bodycodec.LivePackAbove/10), "streamed, packed": strings.Repeat("a large tool output ", bodycodec.LivePackAbove/10)}

// writeEachWay creates the sessions of bodyWays in s and writes into each n messages, the
// one at seq i begun by start(id, i), of one text block, ended by stop(id, i); then syncs.
func writeEachWay(t *testing.T, s *Store, n int, start func(id string, seq int64) session.BeginMessage, stop func(id string, seq int64) session.EndMessage) {
	t.Helper()
	for id := range bodyWays {
		s.Apply(session.CreateSession{Info: newInfo(id)})
	}
	for i := range n {
		seq := int64(i)
		for id, text := range bodyWays {
			block := session.PutBlock{SessionID: id, Seq: seq, Index: 0, JSON: []byte(`{"type":"text","text":"` + text + `"}`)}
			if strings.HasPrefix(id, "whole") {
				s.Apply(start(id, seq), block, stop(id, seq))
				continue
			}
			s.Apply(start(id, seq), block)
			if err := s.Sync(); err != nil { // the message streams: its end comes in a later batch
				t.Fatal(err)
			}
			s.Apply(stop(id, seq))
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
}
