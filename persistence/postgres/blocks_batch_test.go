package postgres

import (
	"bytes"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/msgbody"
	"github.com/sessionkeep/sessionkeep/session"
)

// TestBlockRowsKeepOneRowPerBlock gathers a block twice (a partial checkpoint, then the
// complete block) between two others: one statement may not upsert a row twice, so the
// block keeps one row, in its first place, with what was gathered last.
func TestBlockRowsKeepOneRowPerBlock(t *testing.T) {
	var r blockRows
	r.add(blockKey{1, 0, 0}, false, []byte(`a`), nil)
	r.add(blockKey{1, 0, 1}, true, []byte(`b partial`), nil)
	r.add(blockKey{2, 0, 1}, false, []byte(`other session`), nil)
	r.add(blockKey{1, 0, 1}, false, []byte(`b complete`), nil)
	if len(r.sid) != 3 {
		t.Fatalf("%d rows, want 3", len(r.sid))
	}
	if r.partial[1] || string(r.body[1]) != `b complete` {
		t.Errorf("row 1 is %v %q, want the complete block", r.partial[1], r.body[1])
	}
	if string(r.body[2]) != `other session` || r.sid[2] != 2 {
		t.Errorf("row 2 is session %d %q, want session 2's block", r.sid[2], r.body[2])
	}
	// A message that ended after its blocks were gathered is not journaled.
	r.drop(msgbody.Key{SID: 1, Seq: 0})
	if kept := r.journaled(); len(kept.sid) != 1 || kept.sid[0] != 2 {
		t.Errorf("after session 1's message ended, %d rows journaled (%v), want session 2's only", len(kept.sid), kept.sid)
	}
}

// TestOneBatchStoresEveryBlockOnce records a message whose blocks are checkpointed and
// completed in the same group commit, one holding a NUL in its searchable text and one a
// tool_use, and reads back each block once, complete, with nothing reported skipped.
func TestOneBatchStoresEveryBlockOnce(t *testing.T) {
	store := openAt(t, freshURL(t))
	s := newSession(t, session.NewManager(store))
	id := s.ID()
	blocks := [][]byte{
		[]byte(`{"type":"text","text":"heron \u0000 egret"}`),
		[]byte(`{"type":"tool_use","id":"toolu_1","name":"Read","input":{"path":"a.go"}}`),
	}
	ops := []session.Op{session.BeginMessage{SessionID: id, Header: session.MessageHeader{
		Seq: 0, UUID: "0190a0b0-0000-7000-8000-0000000000a1", Type: "assistant", Role: "assistant", CreatedAt: time.Now()}}}
	for i, b := range blocks {
		ops = append(ops, session.PutBlock{SessionID: id, Seq: 0, Index: i, Partial: true, JSON: []byte(`{"type":"text","text":"par`)})
		ops = append(ops, session.PutBlock{SessionID: id, Seq: 0, Index: i, JSON: b, ToolUseID: map[int]string{1: "toolu_1"}[i]})
	}
	ops = append(ops, session.EndMessage{SessionID: id, Seq: 0, Status: session.MessageComplete})
	store.Apply(ops...)
	if err := store.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	var got [][]byte
	err := store.ScanMessages(id, func(m *session.StoredMessage) error {
		for _, b := range m.Blocks {
			got = append(got, bytes.Clone(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(blocks) {
		t.Fatalf("%d blocks stored, want %d", len(got), len(blocks))
	}
	for i := range blocks {
		if !bytes.Equal(got[i], blocks[i]) {
			t.Errorf("block %d is %s, want %s", i, got[i], blocks[i])
		}
	}
	if seq, found, err := store.ToolUseSeq(id, "toolu_1"); err != nil || !found || seq != 0 {
		t.Errorf("ToolUseSeq = %d, %v, %v; want 0, true", seq, found, err)
	}
}
