package sqlite

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestExtraStoredOnceInTheBody: a message's extra fields that its body holds byte for byte
// are not stored again in the extra column, and read back as they were given, whether the
// message ended in its batch or streamed; extra fields the body would hold differently
// (non-ASCII text, escaped there) or that name a sidechain's tool call keep the column.
func TestExtraStoredOnceInTheBody(t *testing.T) {
	cases := []struct {
		name, extra string
		continues   bool
		inBody      bool
	}{
		{"source record", `{"context":{"cwd":"/tmp/x","gitBranch":"main"},"source":{"format":"claude-code","record":{"isSidechain":false,"type":"user"}}}`, false, true},
		{"a message key of its own, continuing", `{"source":{"record":{"message":{"id":"m1"}},"note":",\"isSidechain\":true"}}`, true, true},
		{"spaced", `{ "a" : 1 }`, false, true},
		{"non-ASCII", `{"context":{"cwd":"/home/zoë"}}`, false, false},
		{"sidechain call", `{"parentToolUseId":"toolu_1"}`, false, false},
		{"none", `{}`, false, false},
	}
	s, path := openTemp(t)
	db := rawDB(t, path)
	s.Apply(session.CreateSession{Info: newInfo("whole")}, session.CreateSession{Info: newInfo("streamed")})
	for i, c := range cases {
		seq := int64(i)
		block := session.PutBlock{Seq: seq, Index: 0, JSON: []byte(`{"type":"text","text":"hi"}`)}
		for _, id := range []string{"whole", "streamed"} {
			op := begin(id, seq)
			op.Header.Continues = c.continues
			block.SessionID = id
			stop := session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete, Meta: []byte(`{}`), Extra: []byte(c.extra)}
			if id == "whole" {
				s.Apply(op, block, stop)
				continue
			}
			s.Apply(op, block)
			if err := s.Sync(); err != nil { // the message streams: its end comes in a later batch
				t.Fatal(err)
			}
			s.Apply(stop)
		}
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"whole", "streamed"} {
		msgs := scan(t, s, id)
		if len(msgs) != len(cases) {
			t.Fatalf("%s: read back %d messages, want %d", id, len(msgs), len(cases))
		}
		for i, c := range cases {
			if got := string(msgs[i].Extra); got != c.extra {
				t.Errorf("%s, %s: extra read back as %s, want %s", id, c.name, got, c.extra)
			}
			stored := queryInt(t, db, `SELECT length(m.extra) FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = ? AND m.seq = ?`, id, i)
			if inBody := stored == 0; inBody != c.inBody {
				t.Errorf("%s, %s: extra column of %d bytes, want it stored only in the body: %v", id, c.name, stored, c.inBody)
			}
		}
	}
}

// TestExtraCutFromADamagedBodyIsCorrupt: a body whose extra fields cannot be found is a
// damaged file, said as such, not extra fields made up.
func TestExtraCutFromADamagedBodyIsCorrupt(t *testing.T) {
	body := []byte(`{"uuid":"u","message":{"role":"user","content":[]}}`)
	lay := layout{messageAt: len(`{"uuid":"u","message":`)}.encode()
	if _, err := extraOf(extraInBody, body, lay, 3); err == nil {
		t.Error("extra fields cut from a body with no isSidechain field")
	}
	if got, err := extraOf([]byte(`{"a":1}`), body, lay, 3); err != nil || string(got) != `{"a":1}` {
		t.Errorf("an extra column of its own read as %s, %v", got, err)
	}
}
