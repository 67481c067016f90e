package sqlite

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// A close that cuts a reply off marks the session interrupted even when the reply's writes
// are committed in the same batch as the close, as when a signal arrives before the writer
// has run: the listing's update for the batch's messages must not set it active again.
func TestCloseInterruptedInTheBatchOfItsMessagesStaysInterrupted(t *testing.T) {
	s, _ := openTemp(t)
	at := time.UnixMilli(1_700_000_000_000).UTC()
	info := session.SessionInfo{ID: "s1", Status: session.StatusActive, CreatedAt: at, UpdatedAt: at}
	s.Apply(session.CreateSession{Info: info})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	hdr := session.MessageHeader{Seq: 0, UUID: "u1", Type: session.TypeAssistant, Role: "assistant", CreatedAt: at}
	s.Apply(
		session.BeginMessage{SessionID: "s1", Header: hdr},
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"The build"}`)},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageInterrupted},
		session.CloseSession{SessionID: "s1", At: at, Interrupted: true},
	)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	st, err := s.LoadSession("s1")
	if err != nil || st.Info.Status != session.StatusInterrupted || st.Info.MessageCount != 1 {
		t.Fatalf("status %q, %d messages, %v; want interrupted, 1", st.Info.Status, st.Info.MessageCount, err)
	}

	// A message written after the close, in the same batch, is activity again.
	hdr.Seq, hdr.UUID = 1, "u2"
	s.Apply(
		session.CloseSession{SessionID: "s1", At: at, Interrupted: true},
		session.BeginMessage{SessionID: "s1", Header: hdr},
		session.EndMessage{SessionID: "s1", Seq: 1, Status: session.MessageComplete},
	)
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if st, err = s.LoadSession("s1"); err != nil || st.Info.Status != session.StatusActive {
		t.Fatalf("status %q, %v; want active", st.Info.Status, err)
	}
}
