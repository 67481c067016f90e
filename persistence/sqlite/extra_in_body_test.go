package sqlite

import (
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestExtraStoredOnceInTheBody: a message's extra fields that its body holds byte for byte
// are not stored again in the extra column, and read back as they were given, whether the
// message ended in its batch or streamed; extra fields the body would hold differently
// (non-ASCII text, escaped there) keep the column, and those that name a sidechain's tool
// call keep that field alone, where SQL reads it (ScanLinks). A large message, whose body
// is stored packed, is compared and read back through its unpacked body.
func TestExtraStoredOnceInTheBody(t *testing.T) {
	const whole = "the whole extra"
	cases := []struct {
		name, extra string
		continues   bool
		column      string // what the extra column holds
	}{
		{"source record", `{"context":{"cwd":"/tmp/x","gitBranch":"main"},"source":{"format":"claude-code","record":{"isSidechain":false,"type":"user"}}}`, false, ""},
		{"a message key of its own, continuing", `{"source":{"record":{"message":{"id":"m1"}},"note":",\"isSidechain\":true"}}`, true, ""},
		{"spaced", `{ "a" : 1 }`, false, ""},
		{"non-ASCII", `{"context":{"cwd":"/home/zoë"}}`, false, whole},
		{"sidechain call alone", `{"parentToolUseId":"toolu_1"}`, false, `{"parentToolUseId":"toolu_1"}`},
		{"sidechain call and source", `{"parentToolUseId":"toolu_2","source":{"format":"claude-code"}}`, false, `{"parentToolUseId":"toolu_2"}`},
		{"sidechain call with a quote", `{"parentToolUseId":"a\"b","source":{}}`, false, whole},
		{"none", `{}`, false, whole},
	}
	s, path := openTemp(t)
	db := rawDB(t, path)
	writeEachWay(t, s, len(cases), func(id string, seq int64) session.BeginMessage {
		op := begin(id, seq)
		op.Header.Continues = cases[seq].continues
		return op
	}, func(id string, seq int64) session.EndMessage {
		return session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete, Meta: []byte(`{}`), Extra: []byte(cases[seq].extra)}
	})
	for id := range bodyWays {
		msgs := scan(t, s, id)
		if len(msgs) != len(cases) {
			t.Fatalf("%s: read back %d messages, want %d", id, len(msgs), len(cases))
		}
		for i, c := range cases {
			if got := string(msgs[i].Extra); got != c.extra {
				t.Errorf("%s, %s: extra read back as %s, want %s", id, c.name, got, c.extra)
			}
			var stored, call sql.NullString
			var packed bool
			err := db.QueryRow(`SELECT CAST(m.extra AS TEXT), CASE WHEN json_valid(CAST(m.extra AS TEXT)) THEN json_extract(CAST(m.extra AS TEXT), '$.parentToolUseId') END,
				substr(m.body, 1, 1) = x'00' FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = ? AND m.seq = ?`, id, i).Scan(&stored, &call, &packed)
			if err != nil {
				t.Fatal(err)
			}
			want := c.column
			if want == whole {
				want = c.extra
			}
			if packed != strings.HasSuffix(id, "packed") {
				t.Errorf("%s, %s: body stored packed: %v", id, c.name, packed)
			}
			if stored.String != want {
				t.Errorf("%s, %s: extra column %q, want %q", id, c.name, stored.String, want)
			}
			var given struct{ ParentToolUseID *string }
			if err := json.Unmarshal([]byte(c.extra), &given); err != nil {
				t.Fatal(err)
			}
			if given.ParentToolUseID != nil && call.String != *given.ParentToolUseID {
				t.Errorf("%s, %s: SQL reads the call as %q, want %q", id, c.name, call.String, *given.ParentToolUseID)
			}
		}
	}
}
