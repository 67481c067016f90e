package sqlite

import (
	"errors"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/tokens"
)

// TestImportedRecordKeepsItsExtraPacked: an imported record that is not a message stores
// its extra fields packed (a live one's stay plain JSON), and every reader of the column
// gets the same JSON back: the scan, the context scan and the links (a sidechain record's
// parentToolUseId finds the call that started it).
func TestImportedRecordKeepsItsExtraPacked(t *testing.T) {
	s, path := openTemp(t)
	extra := `{"parentToolUseId":"toolu_1","source":{"format":"codex","record":{"payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100621,"cached_input_tokens":89472}}},"type":"event_msg"}}}`
	call := []byte(`{"type":"tool_use","id":"toolu_1","name":"Task","input":{}}`)
	s.Apply(session.CreateSession{Info: newInfo("s1")}, begin("s1", 0),
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: call, ToolUseID: "toolu_1"},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete, Imported: true})
	for seq, imported := range []bool{true, false} {
		op := begin("s1", int64(seq+1))
		op.Header.Role, op.Header.Type, op.Header.IsSidechain = "", "event_msg", true
		s.Apply(op, session.EndMessage{SessionID: "s1", Seq: int64(seq + 1), Status: session.MessageComplete, Extra: []byte(extra), Imported: imported})
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE seq = 1 AND substr(extra, 1, 1) IN (x'01', x'02') AND length(extra) < ?`, len(extra)); n != 1 {
		t.Errorf("the imported record's extra is not packed")
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE seq = 2 AND CAST(extra AS TEXT) = ?`, extra); n != 1 {
		t.Errorf("the live record's extra is not plain")
	}
	msgs := scan(t, s, "s1")
	if len(msgs) != 3 || string(msgs[1].Extra) != extra || string(msgs[2].Extra) != extra {
		t.Fatalf("scan: %d messages, extras %q", len(msgs), msgs[1].Extra)
	}
	err := s.ScanContext("s1", 1, 2, func(m *tokens.ContextMessage) error {
		if string(m.Extra) != extra {
			t.Errorf("ScanContext of %d: extra %q", m.Seq, m.Extra)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var calls []int64
	err = s.ScanLinks("s1", func(l *session.Link) error {
		if l.Seq > 0 {
			calls = append(calls, l.ToolUseSeq)
		}
		return nil
	})
	if err != nil || len(calls) != 2 || calls[0] != 0 || calls[1] != 0 {
		t.Errorf("links of the two records to their call: %v, %v; want [0 0]", calls, err)
	}

	exec(t, db, `UPDATE messages SET extra = x'0128b52ffd00ff' WHERE seq = 1`)
	if err := s.ScanMessages("s1", func(*session.StoredMessage) error { return nil }); !errors.Is(err, session.ErrSessionCorrupt) || !strings.Contains(err.Error(), "extra") {
		t.Errorf("a damaged packed extra: %v, want ErrSessionCorrupt", err)
	}
}
