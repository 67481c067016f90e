package session_test

import (
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

func TestMessagesIncludesTextStillStreaming(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("Hel"), sessiontest.Text("lo"))
	env := sessiontest.Envelopes(t, s)
	if len(env) != 1 || env[0]["status"] != "streaming" {
		t.Fatalf("envelopes = %v, want one streaming message", env)
	}
	if got := sessiontest.Content(t, env[0]["message"].(map[string]any)); len(got) != 1 || got[0]["text"] != "Hello" {
		t.Fatalf("content = %v, want the partial text", got)
	}
	// More text goes into the same block, not a second one.
	sessiontest.Feed(t, s, sessiontest.Text(", world"))
	if got := sessiontest.Content(t, sessiontest.Messages(t, s)[0]); len(got) != 1 || got[0]["text"] != "Hello, world" {
		t.Fatalf("content = %v", got)
	}
}

// storedBlocks reads a session's messages through a second store on the same file, as
// another process (or the next one, after a crash) would.
func storedBlocks(t *testing.T, path, id string) []session.StoredMessage {
	t.Helper()
	other, err := persistence.Open(path)
	if err != nil {
		t.Fatalf("opening a second store: %v", err)
	}
	defer other.Close()
	var out []session.StoredMessage
	err = other.ScanMessages(id, func(m *session.StoredMessage) error {
		c := *m
		c.Blocks = nil
		for _, b := range m.Blocks {
			c.Blocks = append(c.Blocks, append([]byte(nil), b...))
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		t.Fatalf("ScanMessages: %v", err)
	}
	return out
}

func TestPartialTextIsCheckpointedWithoutBeingAsked(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("The answer"), sessiontest.Text(" is"))
	// Nothing reads or flushes the session: only the checkpoint timer can write the text.
	time.Sleep(3 * session.CheckpointInterval)
	if err := e.Store.Sync(); err != nil {
		t.Fatal(err)
	}
	got := storedBlocks(t, e.Path, s.ID())
	if len(got) != 1 || got[0].Status != "streaming" || len(got[0].Blocks) != 1 {
		t.Fatalf("stored = %+v, want one streaming message with one block", got)
	}
	if b := sessiontest.DecodeObject(t, got[0].Blocks[0]); b["text"] != "The answer is" {
		t.Fatalf("checkpointed block = %v", b)
	}

	// A later checkpoint replaces the partial block rather than adding another.
	sessiontest.Feed(t, s, sessiontest.Text(" 42"))
	time.Sleep(3 * session.CheckpointInterval)
	if err := e.Store.Sync(); err != nil {
		t.Fatal(err)
	}
	got = storedBlocks(t, e.Path, s.ID())
	if len(got[0].Blocks) != 1 {
		t.Fatalf("%d blocks after a second checkpoint, want 1", len(got[0].Blocks))
	}
	if b := sessiontest.DecodeObject(t, got[0].Blocks[0]); b["text"] != "The answer is 42" {
		t.Fatalf("second checkpoint = %v", b)
	}
}

func TestFlushMakesStreamingTextDurable(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Thinking("pondering"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	got := storedBlocks(t, e.Path, s.ID())
	if len(got) != 1 || len(got[0].Blocks) != 1 {
		t.Fatalf("stored = %+v", got)
	}
	if b := sessiontest.DecodeObject(t, got[0].Blocks[0]); b["type"] != "thinking" || b["thinking"] != "pondering" {
		t.Fatalf("flushed block = %v", b)
	}
}
