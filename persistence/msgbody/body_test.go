package msgbody

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/bodycodec"
	"github.com/sessionkeep/sessionkeep/session"
)

// ended returns an assistant message as a writer holds it when it ends: begun, its blocks
// put, ended with meta and extra fields.
func ended(t *testing.T, sessionID string, large bool) (session.StoredMessage, session.EndMessage) {
	t.Helper()
	text := "a short answer"
	if large {
		text = strings.Repeat("a long answer that packs well ", 200)
	}
	h := session.MessageHeader{Seq: 4, UUID: "u-4", ParentUUID: "u-3", Type: "assistant", Role: "assistant", Turn: 2,
		CreatedAt: time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC), Provider: "anthropic"}
	open := OpenBodies{}
	open.Begin(7, session.BeginMessage{SessionID: sessionID, Header: h}, true)
	open.Put(7, session.PutBlock{SessionID: sessionID, Seq: 4, Index: 1, JSON: []byte(`{"type":"text","text":"` + text + `"}`)}, false)
	open.Put(7, session.PutBlock{SessionID: sessionID, Seq: 4, Index: 0, JSON: []byte(`{"type":"thinking","thinking":"hmm, zoë"}`)}, false)
	end := session.EndMessage{SessionID: sessionID, Seq: 4, Status: session.MessageComplete,
		Meta: []byte(`{"model":"claude-x","stop_reason":"end_turn"}`), Extra: []byte(`{"cwd":"/work","gitBranch":"main"}`)}
	b := open.Take(7, 4)
	if b == nil || open.Take(7, 4) != nil {
		t.Fatal("Take did not hand the open body over once")
	}
	m, ok := b.Message(end)
	if !ok {
		t.Fatal("a message with all its blocks is not whole")
	}
	return m, end
}

// TestBodyReadsBackWhatWasBuilt: a message ended from its open body is stored as one body
// whose layout, meta and extra fields read back as given (the columns left empty where
// the body holds them), live and imported, plain and packed; a fork's rename moves the
// layout with the body, kept in its stored form.
func TestBodyReadsBackWhatWasBuilt(t *testing.T) {
	for _, imported := range []bool{false, true} {
		for _, large := range []bool{false, true} {
			m, _ := ended(t, "s-1", large)
			var bb Builder
			c := MessageColumns(&bb, &m, imported)
			if len(c.Meta) != 0 || len(c.Extra) != 0 {
				t.Errorf("imported %v, large %v: meta and extra columns %q, %q, want them left to the body", imported, large, c.Meta, c.Extra)
			}
			if got := bodycodec.IsPacked(c.Body); got != (large || imported) || bodycodec.IsDictPacked(c.Body) != imported {
				t.Errorf("imported %v, large %v: packed %v", imported, large, got)
			}
			extra, err := ExtraColumn(c.Extra, m.Seq)
			if err != nil {
				t.Fatal(err)
			}
			meta, extra, blocks, err := FieldsAndBlocks(c.Meta, extra, c.Body, c.Layout, nil, m.Seq)
			if err != nil {
				t.Fatal(err)
			}
			if string(meta) != string(m.Meta) || string(extra) != string(m.Extra) {
				t.Errorf("imported %v, large %v: read back meta %s, extra %s", imported, large, meta, extra)
			}
			if len(blocks) != 2 || !bytes.Equal(blocks[0], m.Blocks[0]) || !bytes.Equal(blocks[1], m.Blocks[1]) {
				t.Errorf("imported %v, large %v: blocks read back as %q", imported, large, blocks)
			}
			if !bytes.Contains(blocks[0], []byte(`zo\u00eb`)) {
				t.Errorf("a block is not stored as ASCII JSON: %s", blocks[0])
			}

			body, err := Unpacked(nil, c.Body, m.Seq)
			if err != nil || !json.Valid(body) {
				t.Fatalf("body %q does not unpack to JSON: %v", c.Body, err)
			}
			stored := bytes.Clone(c.Body)
			renamed, lay, err := Renamed(body, c.Layout, SessionIDField("s-1"), SessionIDField("a-longer-session-id"))
			if err != nil {
				t.Fatal(err)
			}
			var envelope struct{ SessionID string }
			if err := json.Unmarshal(renamed, &envelope); err != nil || envelope.SessionID != "a-longer-session-id" {
				t.Errorf("renamed body holds session %q (%v)", envelope.SessionID, err)
			}
			again := bb.StoredLike(renamed, stored)
			if bodycodec.IsPacked(again) != bodycodec.IsPacked(stored) || bodycodec.IsDictPacked(again) != bodycodec.IsDictPacked(stored) {
				t.Errorf("imported %v, large %v: a fork's copy is not stored as its origin was", imported, large)
			}
			if got, err := StoredBlocks(again, lay, nil, m.Seq); err != nil || !bytes.Equal(got[1], m.Blocks[1]) {
				t.Errorf("imported %v, large %v: the renamed body's blocks read back as %q, %v", imported, large, got, err)
			}
		}
	}
}

// TestOpenBodyNotWhole: a message with a block missing or still partial, or a record that
// is not a message, makes no body; Forget drops only its session's open bodies.
func TestOpenBodyNotWhole(t *testing.T) {
	h := session.MessageHeader{Seq: 1, UUID: "u", Role: "user", Type: "user"}
	open := OpenBodies{}
	open.Begin(1, session.BeginMessage{SessionID: "s", Header: h}, false)
	open.Put(1, session.PutBlock{SessionID: "s", Seq: 1, Index: 1, JSON: []byte(`{"type":"text","text":"b"}`)}, true)
	b := open[Key{SID: 1, Seq: 1}]
	if _, ok := b.Message(session.EndMessage{Seq: 1}); ok {
		t.Error("a message with block 0 missing is whole")
	}
	if !b.Journaled {
		t.Error("a block put to a block row does not mark its body journaled")
	}
	open.Put(1, session.PutBlock{SessionID: "s", Seq: 1, Index: 0, JSON: []byte(`{"type":"text","text":"a`), Partial: true}, false)
	if _, ok := b.Message(session.EndMessage{Seq: 1}); ok {
		t.Error("a message with a partial block is whole")
	}
	record := OpenBody{Header: session.MessageHeader{Seq: 2, Type: "summary"}, Unwritten: true}
	if _, ok := record.Message(session.EndMessage{Seq: 2}); ok || !record.IsWholeRecord() {
		t.Error("a summary record is taken for a message, or not for a whole record")
	}
	open.Begin(2, session.BeginMessage{SessionID: "t", Header: h}, false)
	open.Forget(1)
	if len(open) != 1 || open[Key{SID: 2, Seq: 1}] == nil {
		t.Errorf("Forget(1) left %v", open)
	}
}

// TestLayoutRoundTripAndDamage: a layout reads back as encoded; one that does not fit its
// body, or names a hole, is ErrBadLayout.
func TestLayoutRoundTripAndDamage(t *testing.T) {
	l := Layout{MessageAt: 10, Blocks: []Span{{At: 20, N: 5}, {At: 26, N: 300}}}
	got, err := DecodeLayout(l.Encode(), 400, nil)
	if err != nil || got.MessageAt != 10 || len(got.Blocks) != 2 || got.Blocks[1] != l.Blocks[1] {
		t.Fatalf("decoded %+v, %v", got, err)
	}
	if _, err := DecodeLayout(l.Encode(), 300, nil); err != ErrBadLayout {
		t.Errorf("a layout past its body's end: %v", err)
	}
	if _, err := DecodeLayout([]byte{0xff}, 300, nil); err != ErrBadLayout {
		t.Errorf("a truncated layout: %v", err)
	}
	holed := Layout{MessageAt: 1, Blocks: []Span{{At: 2, N: 0, Blob: 9}}}
	if !holed.HasHole() || l.HasHole() {
		t.Error("HasHole is wrong")
	}
	if _, err := BlocksOf(make([]byte, 10), holed, nil); err != ErrBadLayout {
		t.Errorf("a body with a hole read: %v", err)
	}
}
