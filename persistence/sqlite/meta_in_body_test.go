package sqlite

import (
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// TestMetaStoredOnceInTheBody: a message's meta that its body holds byte for byte is not
// stored again in the meta column and reads back as it was given, whether the message ended
// in its batch or streamed, its body plain or packed; meta the body would hold differently
// (non-ASCII text, escaped there) keeps the column, and so does "{}". ScanUsage reads the
// model from the body when the column is left empty.
func TestMetaStoredOnceInTheBody(t *testing.T) {
	const inBody = ""
	cases := []struct {
		name, meta string
		column     string // what the meta column holds
	}{
		{"assistant's", `{"id":"msg_1","model":"claude-x","stop_reason":"end_turn","usage":{"input_tokens":3}}`, inBody},
		{"with a closing bracket in a string", `{"note":"],}}","model":"m]"}`, inBody},
		{"non-ASCII", `{"model":"zoë"}`, `{"model":"zoë"}`},
		{"none", `{}`, `{}`},
	}
	s, path := openTemp(t)
	db := rawDB(t, path)
	writeEachWay(t, s, len(cases), begin, func(id string, seq int64) session.EndMessage {
		return session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete, Meta: []byte(cases[seq].meta), Extra: []byte(`{}`)}
	})
	for id := range bodyWays {
		msgs := scan(t, s, id)
		if len(msgs) != len(cases) {
			t.Fatalf("%s: read back %d messages, want %d", id, len(msgs), len(cases))
		}
		for i, c := range cases {
			if got := string(msgs[i].Meta); got != c.meta {
				t.Errorf("%s, %s: meta read back as %s, want %s", id, c.name, got, c.meta)
			}
			var stored string
			var packed bool
			err := db.QueryRow(`SELECT CAST(m.meta AS TEXT), substr(m.body, 1, 1) = x'00'
				FROM messages m JOIN sessions s ON s.sid = m.sid WHERE s.id = ? AND m.seq = ?`, id, i).Scan(&stored, &packed)
			if err != nil {
				t.Fatal(err)
			}
			if packed != strings.HasSuffix(id, "packed") {
				t.Errorf("%s, %s: body stored packed: %v", id, c.name, packed)
			}
			if stored != c.column {
				t.Errorf("%s, %s: meta column %q, want %q", id, c.name, stored, c.column)
			}
		}
		var models []string
		err := s.ScanUsage(catalog.UsageFilter{SessionID: id}, func(r *catalog.UsageRecord) error {
			models = append(models, r.Model)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"claude-x", "m]", "zoë", ""}; strings.Join(models, "|") != strings.Join(want, "|") {
			t.Errorf("%s: ScanUsage models %q, want %q", id, models, want)
		}
	}
}

// TestMetaColumnOfAStoreBeforeReadsAsItIs: a store written before the meta was left in the
// body holds it in the column beside the body; that column is read, not the body.
func TestMetaColumnOfAStoreBeforeReadsAsItIs(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("old")})
	s.Apply(begin("old", 0), session.PutBlock{SessionID: "old", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"hi"}`)},
		session.EndMessage{SessionID: "old", Seq: 0, Status: session.MessageComplete, Meta: []byte(`{"model":"in-body"}`), Extra: []byte(`{}`)})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	// What the writer stored before: the meta in the column too. A column differing from
	// the body's shows which one is read.
	if _, err := rawDB(t, path).Exec(`UPDATE messages SET meta = '{"model":"column"}'`); err != nil {
		t.Fatal(err)
	}
	if got := string(scan(t, s, "old")[0].Meta); got != `{"model":"column"}` {
		t.Errorf("meta read back as %s, want the column's", got)
	}
}
