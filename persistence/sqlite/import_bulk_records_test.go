package sqlite

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestRecordEndedInItsBatchIsOneInsert: a record that is not a message, begun and ended in
// one batch, is one INSERT with its final status, fields and usage, and reads back as the
// same record ended in a later batch (inserted streaming, then updated) does.
func TestRecordEndedInItsBatchIsOneInsert(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	exec(t, db, `CREATE TABLE written (what TEXT)`)
	exec(t, db, `CREATE TRIGGER count_updates AFTER UPDATE ON messages BEGIN INSERT INTO written VALUES ('update'); END`)
	record := func(sessionID string) session.BeginMessage {
		op := begin(sessionID, 0)
		op.Header.Role, op.Header.Type = "", "summary"
		op.Header.Extra = []byte(`{"source":{"format":"claude-code"}}`)
		return op
	}
	end := func(sessionID string) session.EndMessage {
		return session.EndMessage{SessionID: sessionID, Seq: 0, Status: session.MessageComplete,
			Meta: []byte(`{"leafUuid":"u"}`), Extra: []byte(`{"source":{"format":"claude-code","summary":"text"}}`),
			Usage: session.Usage{OutputTokens: 7}}
	}
	s.Apply(session.CreateSession{Info: newInfo("once")}, record("once"), end("once"))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM written`); n != 0 {
		t.Errorf("%d updates of the record ended in its batch, want 0", n)
	}
	s.Apply(session.CreateSession{Info: newInfo("streamed")}, record("streamed"))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.Apply(end("streamed"))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	once, streamed := scan(t, s, "once"), scan(t, s, "streamed")
	if len(once) != 1 || len(streamed) != 1 {
		t.Fatalf("read back %d and %d records, want 1 each", len(once), len(streamed))
	}
	a, b := once[0], streamed[0]
	if a.Status != b.Status || string(a.Meta) != string(b.Meta) || string(a.Extra) != string(b.Extra) || a.Type != b.Type ||
		len(a.Blocks) != 0 || string(a.Extra) != `{"source":{"format":"claude-code","summary":"text"}}` {
		t.Errorf("ended in its batch %+v\nended later %+v", a, b)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE output_tokens = 7 AND status = 'complete' AND body IS NULL`); n != 2 {
		t.Errorf("%d records with their usage and status, want 2", n)
	}
}
