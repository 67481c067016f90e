package sqlite

import (
	"os"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/procowner"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// crashedSession writes a session whose last assistant message is still streaming, as a
// process killed mid-stream leaves it, with owner as the process that was writing it.
// It returns the store's path and the session's id.
func crashedSession(t *testing.T, owner string) (string, string) {
	t.Helper()
	s, path := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	if _, err := sess.AppendUserMessage([]byte(`"explain"`)); err != nil {
		t.Fatal(err)
	}
	mustIngest(t, sess,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "m1"},
		stream.Chunk{Kind: stream.ChunkText, Text: "It works like th"},
	)
	if err := sess.Flush(); err != nil { // the partial text is on disk, the message unfinished
		t.Fatal(err)
	}
	// Close the store under the Manager, so nothing ends the message: a crash.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	exec(t, db, `UPDATE sessions SET owner = ?`, owner)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE status = 'streaming'`); n != 1 {
		t.Fatalf("setup: %d streaming messages, want 1", n)
	}
	return path, sess.ID()
}

func hostname(t *testing.T) string {
	t.Helper()
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestDeadOwnersStreamingMessageIsMarkedInterrupted(t *testing.T) {
	path, id := crashedSession(t, hostname(t)+":999999:123")
	s := openAt(t, path)
	msgs := scan(t, s, id)
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want 2 (nothing dropped)", len(msgs))
	}
	if msgs[0].Status != session.MessageComplete {
		t.Errorf("the complete prompt became %s", msgs[0].Status)
	}
	if msgs[1].Status != session.MessageInterrupted {
		t.Errorf("cut-off message status %s, want interrupted", msgs[1].Status)
	}
	if len(msgs[1].Blocks) != 1 || string(msgs[1].Blocks[0]) != `{"type":"text","text":"It works like th"}` {
		t.Errorf("partial text not kept as it was: %q", msgs[1].Blocks)
	}
	st, err := s.LoadSession(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Info.Status != session.StatusInterrupted {
		t.Errorf("session status %s, want interrupted", st.Info.Status)
	}

	// Continuing the session makes it active again; the interrupted message stays so.
	m := session.NewManager(s)
	sess, err := m.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	sess.AppendUserMessage([]byte(`"go on"`))
	s.Sync()
	if st, _ := s.LoadSession(id); st.Info.Status != session.StatusActive {
		t.Errorf("session status after a new message %s, want active", st.Info.Status)
	}
	if msgs := scan(t, s, id); msgs[1].Status != session.MessageInterrupted || msgs[2].ParentUUID != msgs[1].UUID {
		t.Errorf("after continuing: %+v", msgs)
	}
}

func TestLiveOrRemoteOwnersMessagesAreLeftStreaming(t *testing.T) {
	owners := map[string]string{
		"this process":        procowner.Self(),
		"a process elsewhere": "some-other-host-" + hostname(t) + ":1:1",
	}
	for name, owner := range owners {
		t.Run(name, func(t *testing.T) {
			path, id := crashedSession(t, owner)
			s := openAt(t, path)
			msgs := scan(t, s, id)
			if msgs[1].Status != session.MessageStreaming {
				t.Errorf("message of a possibly live writer marked %s", msgs[1].Status)
			}
			if st, _ := s.LoadSession(id); st.Info.Status != session.StatusActive {
				t.Errorf("session status %s, want active", st.Info.Status)
			}
		})
	}
}
