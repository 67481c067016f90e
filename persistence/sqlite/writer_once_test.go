package sqlite

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// TestMessageEndedInItsBatchIsOneRow: a message that begins and ends in one batch is one
// row, inserted whole with its body; no block row is written for it.
func TestMessageEndedInItsBatchIsOneRow(t *testing.T) {
	s, path := openTemp(t)
	db := rawDB(t, path)
	exec(t, db, `CREATE TABLE written (what TEXT)`)
	exec(t, db, `CREATE TRIGGER count_updates AFTER UPDATE ON messages BEGIN INSERT INTO written VALUES ('update'); END`)
	exec(t, db, `CREATE TRIGGER count_blocks AFTER INSERT ON blocks BEGIN INSERT INTO written VALUES ('block'); END`)
	s.Apply(session.CreateSession{Info: newInfo("s1")}, begin("s1", 0),
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"once"}`)},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete, Usage: session.Usage{InputTokens: 5}})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM written`); n != 0 {
		t.Errorf("%d block inserts and message updates, want 0", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE status = 'complete' AND input_tokens = 5 AND body IS NOT NULL`); n != 1 {
		t.Errorf("%d whole rows, want 1", n)
	}
	if msgs := scan(t, s, "s1"); len(msgs) != 1 || string(msgs[0].Blocks[0]) != `{"type":"text","text":"once"}` {
		t.Errorf("read back %+v", msgs)
	}
}

// TestUnwholeMessageEndedInItsBatchKeepsItsBlocks: a record that is not a message, and a
// message that ends with a block still partial, have no body; begun and ended in one
// batch they are stored as rows, blocks included, as if they had streamed.
func TestUnwholeMessageEndedInItsBatchKeepsItsBlocks(t *testing.T) {
	s, _ := openTemp(t)
	record := begin("s1", 0)
	record.Header.Role, record.Header.Type = "", "summary"
	s.Apply(session.CreateSession{Info: newInfo("s1")}, record,
		session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"a record"}`)},
		session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete},
		begin("s1", 1),
		session.PutBlock{SessionID: "s1", Seq: 1, Index: 0, JSON: []byte(`{"type":"text","text":"whole"}`)},
		session.PutBlock{SessionID: "s1", Seq: 1, Index: 1, Partial: true, JSON: []byte(`{"type":"text","text":"cut"}`)},
		session.EndMessage{SessionID: "s1", Seq: 1, Status: session.MessageInterrupted})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	msgs := scan(t, s, "s1")
	if len(msgs) != 2 || len(msgs[0].Blocks) != 1 || len(msgs[1].Blocks) != 2 {
		t.Fatalf("read back %d messages: %+v", len(msgs), msgs)
	}
	if msgs[0].Type != "summary" || msgs[1].Status != session.MessageInterrupted || string(msgs[1].Blocks[1]) != `{"type":"text","text":"cut"}` {
		t.Errorf("read back %+v", msgs)
	}
}

// TestForkRenamesBodiesOfEitherIDLength: a fork's bodies name the fork, whether the copy
// swaps the session id in SQL (ids of one length) or in Go (lengths that differ, which
// shifts the layout).
func TestForkRenamesBodiesOfEitherIDLength(t *testing.T) {
	for _, forkID := range []string{"s2", "a-fork-with-a-longer-id"} {
		s, _ := openTemp(t)
		fork := newInfo(forkID)
		fork.ForkedFrom = &session.ForkOrigin{SessionID: "s1", UUID: "uuid-0"}
		s.Apply(session.CreateSession{Info: newInfo("s1")}, begin("s1", 0),
			session.PutBlock{SessionID: "s1", Seq: 0, Index: 0, JSON: []byte(`{"type":"text","text":"first"}`)},
			session.PutBlock{SessionID: "s1", Seq: 0, Index: 1, JSON: []byte(`{"type":"text","text":"second"}`)},
			session.EndMessage{SessionID: "s1", Seq: 0, Status: session.MessageComplete},
			session.ForkSession{From: "s1", Info: fork, Seqs: []int64{0}})
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		err := s.ScanEncoded(forkID, 0, func(m *session.StoredMessage) error {
			var env struct {
				SessionID string `json:"sessionId"`
				Message   struct{ Content []struct{ Text string } }
			}
			if err := json.Unmarshal(bytes.Join(m.Encoded, nil), &env); err != nil {
				return err
			}
			if env.SessionID != forkID || len(env.Message.Content) != 2 || env.Message.Content[1].Text != "second" {
				t.Errorf("fork %s: body %+v", forkID, env)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if msgs := scan(t, s, forkID); len(msgs) != 1 || string(msgs[0].Blocks[1]) != `{"type":"text","text":"second"}` {
			t.Errorf("fork %s: read back %+v", forkID, msgs)
		}
	}
}
