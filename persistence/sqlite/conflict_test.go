package sqlite

import (
	"errors"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestClosingASessionForgetsItsRefusedMessages: the messages the writer refused in a
// session (another process's took their place) are kept while the session is open, so
// that what follows them is refused too, and dropped, seq and uuid, when it closes; those
// of another session stay.
func TestClosingASessionForgetsItsRefusedMessages(t *testing.T) {
	s, _ := openTemp(t)
	for _, id := range []string{"s-closes", "s-stays"} {
		s.Apply(session.CreateSession{Info: newInfo(id)}, begin(id, 0), end(id, 0))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s-closes", "s-stays"} {
		dup := begin(id, 0) // its seq is taken: refused
		dup.Header.UUID = "refused-in-" + id
		s.Apply(dup)
	}
	if err := s.Flush(); !errors.Is(err, session.ErrSessionConflict) {
		t.Fatalf("Flush after the conflicts: %v, want ErrSessionConflict", err)
	}
	refused := func(id string) (keys, uuids int) {
		sid := s.w.sids[id]
		for key := range s.w.refused.keys {
			if key.SID == sid {
				keys++
			}
		}
		for _, of := range s.w.refused.uuids {
			if of == sid {
				uuids++
			}
		}
		return keys, uuids
	}
	if k, u := refused("s-closes"); k != 1 || u != 1 {
		t.Fatalf("the writer holds %d seqs and %d uuids refused in the session, want 1 and 1", k, u)
	}

	s.Apply(session.CloseSession{SessionID: "s-closes", At: time.Now()})
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if k, u := refused("s-closes"); k != 0 || u != 0 {
		t.Errorf("after the session closed the writer still holds %d seqs and %d uuids refused in it", k, u)
	}
	if k, u := refused("s-stays"); k != 1 || u != 1 {
		t.Errorf("another session's refused messages were dropped too: %d seqs, %d uuids left", k, u)
	}
}
