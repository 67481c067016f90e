package postgres

import (
	"errors"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestMessagesInOneStatementKeepTheirRefusals writes, in one batch and so one multi-row
// statement (more than multiRowFrom messages and tool uses), messages of a session whose seq
// 0 another writer took: the message at seq 0 is refused and the one chained to it (its
// parent, the message begun before it) with it, their tool uses with them; a message after
// them whose parent is another (no chain) is stored, and the one chained to it; a second
// session's messages in the same statement are not touched by the first's refusals, and
// their tool uses count in its listing. The writer hears of the conflict.
func TestMessagesInOneStatementKeepTheirRefusals(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	m := session.NewManager(first)
	one, other := newSession(t, m), newSession(t, m)
	message := func(id string, seq int64, uuid, parent string) []session.Op {
		return []session.Op{
			session.BeginMessage{SessionID: id, Header: session.MessageHeader{Seq: seq, UUID: uuid, ParentUUID: parent,
				Type: "assistant", Role: "assistant", CreatedAt: time.Now()}},
			session.PutBlock{SessionID: id, Seq: seq, ToolUseID: "toolu_" + uuid,
				JSON: []byte(`{"type":"tool_use","id":"toolu_` + uuid + `","name":"Read","input":{}}`)},
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
	wantOther := map[int64]string{0: "other-0"}
	for seq := int64(1); seq <= multiRowFrom; seq++ {
		uuid := "other-" + strconv.FormatInt(seq, 10)
		batch = append(batch, message(other.ID(), seq, uuid, wantOther[seq-1])...)
		wantOther[seq] = uuid
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
	if got := stored(other.ID()); !reflect.DeepEqual(got, wantOther) {
		t.Errorf("the other session stores %v, want %v", got, wantOther)
	}
	for id, want := range map[string]int64{one.ID(): 3, other.ID(): multiRowFrom + 1} {
		var got int64
		err := second.read(func(c conn) error {
			return c.query(`SELECT tool_count FROM sessions WHERE id = $1`, []any{id}, func(row []any) error {
				got = row[0].(int64)
				return nil
			})
		})
		if err != nil || got != want {
			t.Errorf("session %s counts %d tool uses (%v), want %d", id, got, err, want)
		}
	}
	if _, found, err := second.ToolUseSeq(one.ID(), "toolu_second-0"); err != nil || found {
		t.Errorf("the tool use of a refused message is noted (%v)", err)
	}
	if seq, found, err := second.ToolUseSeq(one.ID(), "toolu_second-3"); err != nil || !found || seq != 3 {
		t.Errorf("the tool use of a stored message: seq %d, %v (%v), want 3", seq, found, err)
	}
}
