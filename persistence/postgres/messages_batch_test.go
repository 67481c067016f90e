package postgres

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestMessagesInOneStatementKeepTheirRefusals writes, in one batch and so one multi-row
// statement, messages of a session whose seq 0 another writer took: the message at seq 0 is
// refused and the one chained to it (its parent, the message begun before it) with it; a
// message after them whose parent is another (no chain) is stored, and the one chained to
// it; a second session's message in the same statement is not touched by the first's
// refusals. The writer hears of the conflict.
func TestMessagesInOneStatementKeepTheirRefusals(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	m := session.NewManager(first)
	one, err := m.Create(session.CreateOptions{Title: "contended"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.Create(session.CreateOptions{Title: "beside it"})
	if err != nil {
		t.Fatal(err)
	}
	message := func(id string, seq int64, uuid, parent string) []session.Op {
		return []session.Op{
			session.BeginMessage{SessionID: id, Header: session.MessageHeader{Seq: seq, UUID: uuid, ParentUUID: parent,
				Type: "user", Role: "user", CreatedAt: time.Now()}},
			session.PutBlock{SessionID: id, Seq: seq, JSON: textBlock(uuid)},
			session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete},
		}
	}
	first.Apply(message(one.ID(), 0, "first-0", "")...)
	if err := first.Flush(); err != nil {
		t.Fatal(err)
	}
	var batch []session.Op
	for _, ops := range [][]session.Op{
		message(one.ID(), 0, "second-0", ""),         // seq taken: refused
		message(one.ID(), 1, "second-1", "second-0"), // chained to it: refused with it
		message(other.ID(), 0, "other-0", ""),        // another session: stored
		message(one.ID(), 2, "second-2", "first-0"),  // not chained: stored
		message(one.ID(), 3, "second-3", "second-2"), // chained to a stored one: stored
	} {
		batch = append(batch, ops...)
	}
	second.Apply(batch...)
	if err := second.Flush(); !errors.Is(err, session.ErrSessionConflict) {
		t.Fatalf("flush: %v, want ErrSessionConflict", err)
	}
	stored := func(id string) map[int64]string {
		got := map[int64]string{}
		err := openAt(t, url).ScanMessages(id, func(m *session.StoredMessage) error {
			got[m.Seq] = m.UUID
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got, want := stored(one.ID()), map[int64]string{0: "first-0", 2: "second-2", 3: "second-3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("session stores %v, want %v", got, want)
	}
	if got, want := stored(other.ID()), map[int64]string{0: "other-0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the other session stores %v, want %v", got, want)
	}
}
