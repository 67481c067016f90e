package session_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// Messages may be read (from a worker thread, for an async read) while chunks stream in.
// Every read sees a prefix of the stream, and nothing is lost or doubled.
func TestMessagesWhileIngesting(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"))
	const n = 400
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < n; i++ {
			if err := s.Ingest(sessiontest.Text("ab")); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	longest := 0
	for i := 0; i < 30; i++ {
		msgs := sessiontest.Messages(t, s)
		if len(msgs) == 0 {
			continue
		}
		blocks := sessiontest.Content(t, msgs[0])
		if len(blocks) == 0 {
			continue
		}
		got, _ := blocks[0]["text"].(string)
		if len(blocks) != 1 || strings.Trim(got, "ab") != "" || len(got)%2 != 0 || len(got) < longest {
			t.Fatalf("read %d: content %v is not a growing prefix of the stream", i, blocks)
		}
		longest = len(got)
	}
	wg.Wait()
	sessiontest.Feed(t, s, sessiontest.Done("end_turn", ""))
	if got := sessiontest.Content(t, sessiontest.Messages(t, s)[0]); len(got) != 1 || got[0]["text"] != strings.Repeat("ab", n) {
		t.Fatalf("final text has %d bytes, want %d", len(got[0]["text"].(string)), 2*n)
	}
}
