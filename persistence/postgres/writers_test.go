package postgres

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestARefusedMessageTakesTheRestOfItsTurn has two stores append to one session, both from
// seq 0, their batches interleaved: the first commits one message, the second three, then
// the first two more. The second's first message is refused for the first's seq, and the
// two after it with it, though their seqs were free: the session holds the first writer's
// three messages only, and only the second hears of a conflict.
func TestARefusedMessageTakesTheRestOfItsTurn(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	s1, err := session.NewManager(first).Create(session.CreateOptions{Title: "contended"})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}
	s2, err := session.NewManager(second).Open(s1.ID())
	if err != nil {
		t.Fatal(err)
	}
	appendTexts := func(s *session.Session, texts ...string) {
		t.Helper()
		for _, text := range texts {
			if _, err := s.AppendUserMessage([]byte(strconv.Quote(text))); err != nil {
				t.Fatal(err)
			}
		}
	}
	appendTexts(s1, "first 0")
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}
	appendTexts(s2, "second 0", "second 1", "second 2")
	if err := second.Flush(); !errors.Is(err, session.ErrSessionConflict) {
		t.Fatalf("the second writer's flush: %v, want ErrSessionConflict", err)
	}
	appendTexts(s1, "first 1", "first 2")
	if err := first.Flush(); err != nil {
		t.Fatalf("the first writer's flush: %v", err)
	}
	var texts []string
	err = openAt(t, url).ScanMessages(s1.ID(), func(m *session.StoredMessage) error {
		var block struct{ Text string }
		if err := json.Unmarshal(m.Blocks[0], &block); err != nil {
			return err
		}
		texts = append(texts, block.Text)
		return nil
	})
	if want := []string{"first 0", "first 1", "first 2"}; err != nil || !reflect.DeepEqual(texts, want) {
		t.Fatalf("stored %q (%v), want %q", texts, err, want)
	}
}
