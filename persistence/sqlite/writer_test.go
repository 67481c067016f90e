package sqlite

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func newInfo(id string) session.SessionInfo {
	now := time.Now()
	return session.SessionInfo{ID: id, CreatedAt: now, UpdatedAt: now, Status: session.StatusActive}
}

func begin(id string, seq int64) session.BeginMessage {
	return session.BeginMessage{SessionID: id, Header: session.MessageHeader{
		Seq: seq, UUID: fmt.Sprintf("uuid-%d", seq), Type: session.TypeUser, Role: "user",
		CreatedAt: time.Now(), Meta: []byte(`{}`)}}
}

func end(id string, seq int64) session.EndMessage {
	return session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete, Meta: []byte(`{}`), Extra: []byte(`{}`)}
}

func TestOpsAreAppliedInOrder(t *testing.T) {
	s, _ := openTemp(t)
	const id = "s-order"
	s.Apply(session.CreateSession{Info: newInfo(id)}, begin(id, 0))
	const n = 500
	for i := 0; i < n; i++ {
		// Each index first gets a checkpoint, then its final text: only order keeps the final.
		s.Apply(
			session.PutBlock{SessionID: id, Seq: 0, Index: i, JSON: []byte(`{"type":"text","text":"partial"}`), Partial: true},
			session.PutBlock{SessionID: id, Seq: 0, Index: i, JSON: []byte(fmt.Sprintf(`{"type":"text","text":"%d"}`, i))},
		)
	}
	s.Apply(end(id, 0))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	msgs := scan(t, s, id)
	if len(msgs) != 1 || len(msgs[0].Blocks) != n || msgs[0].Status != session.MessageComplete {
		t.Fatalf("got %d messages, %d blocks", len(msgs), len(msgs[0].Blocks))
	}
	for i, b := range msgs[0].Blocks {
		if want := fmt.Sprintf(`{"type":"text","text":"%d"}`, i); string(b) != want {
			t.Fatalf("block %d = %s, want %s", i, b, want)
		}
	}
}

func TestCommitsWithoutBeingAsked(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s-bg")})
	db := rawDB(t, path)
	deadline := time.Now().Add(2 * time.Second)
	for queryInt(t, db, `SELECT COUNT(*) FROM sessions WHERE id = 's-bg'`) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("an applied op was not committed within 2s with no Sync or Flush")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestConflictingOpIsSkippedAndReportedOnce(t *testing.T) {
	s, _ := openTemp(t)
	const id = "s-conflict"
	s.Apply(session.CreateSession{Info: newInfo(id)}, begin(id, 0), end(id, 0))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	dup := begin(id, 0) // the same seq again: UNIQUE(sid, seq)
	dup.Header.UUID = "another"
	s.Apply(dup, session.BeginMessage{SessionID: "no-such-session", Header: begin("", 5).Header},
		begin(id, 1), end(id, 1)) // ops after the conflicts in the same batch still land
	err := s.Flush()
	if !errors.Is(err, session.ErrSessionConflict) {
		t.Fatalf("Flush after a conflicting op: err = %v, want ErrSessionConflict", err)
	}
	if err := s.Flush(); err != nil {
		t.Errorf("the conflict was reported twice: %v", err)
	}
	msgs := scan(t, s, id)
	if len(msgs) != 2 || msgs[0].UUID != "uuid-0" || msgs[1].UUID != "uuid-1" || msgs[1].Status != session.MessageComplete {
		t.Fatalf("messages = %+v", msgs)
	}
}

func TestConcurrentSessionsAllCommit(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	const sessions, prompts = 8, 25
	var wg sync.WaitGroup
	ids := make([]string, sessions)
	for i := range sessions {
		sess := mustCreate(t, m, session.CreateOptions{})
		ids[i] = sess.ID()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range prompts {
				if _, err := sess.AppendUserMessage([]byte(fmt.Sprintf(`"%d"`, j))); err != nil {
					t.Error(err)
					return
				}
				sess.Ingest(stream.Chunk{Kind: stream.ChunkText, Text: "ok"})
				sess.Ingest(stream.Chunk{Kind: stream.ChunkDone})
			}
		}()
	}
	wg.Wait()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		msgs := scan(t, s, id)
		if len(msgs) != 2*prompts {
			t.Fatalf("session %s: %d messages, want %d", id, len(msgs), 2*prompts)
		}
		for j, msg := range msgs {
			if msg.Seq != int64(j) || msg.Turn != int64(j/2) || (j > 0 && msg.ParentUUID != msgs[j-1].UUID) {
				t.Fatalf("session %s message %d: seq %d turn %d", id, j, msg.Seq, msg.Turn)
			}
		}
		st, _ := s.LoadSession(id)
		if st.Info.MessageCount != 2*prompts {
			t.Errorf("message count %d, want %d", st.Info.MessageCount, 2*prompts)
		}
	}
}
