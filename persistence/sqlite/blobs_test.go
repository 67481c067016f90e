package sqlite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// TestLargeBlocksAreInTheirBody: since migration 10 a completed message, large blocks
// included, is stored once, as its body: no block row, no blob row.
func TestLargeBlocksAreInTheirBody(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{})
	b := mustCreate(t, m, session.CreateOptions{})
	big := strings.Repeat("0123456789abcdef", BlobThreshold/16+1)
	bigJSON, _ := json.Marshal(big)
	for _, sess := range []*session.Session{a, a, b} { // the same file read three times, in two sessions
		if _, err := sess.AppendUserMessage(bigJSON); err != nil {
			t.Fatal(err)
		}
	}
	a.AppendUserMessage([]byte(`"small"`))
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blobs`) + queryInt(t, db, `SELECT COUNT(*) FROM blocks`); n != 0 {
		t.Errorf("%d blob and block rows for completed messages, want 0", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE length(unpack_body(body)) > ?`, len(big)); n != 3 {
		t.Errorf("%d bodies hold the large payload, want 3", n)
	}
	for _, sess := range []*session.Session{a, b} {
		for _, msg := range scan(t, s, sess.ID()) {
			var block struct{ Text string }
			if err := json.Unmarshal(msg.Blocks[0], &block); err != nil {
				t.Fatal(err)
			}
			if block.Text != big && block.Text != "small" {
				t.Errorf("block read back wrong: %d bytes", len(block.Text))
			}
		}
	}
}

func TestFiveMegabyteToolResultRoundTrips(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	id := sess.ID()
	var sb strings.Builder
	for i := 0; sb.Len() < 5<<20; i++ {
		sb.WriteString("line \"quoted\" \\ tab\t é ✓ ")
		sb.WriteString(strings.Repeat("x", i%97))
		sb.WriteByte('\n')
	}
	output := sb.String()
	content, _ := json.Marshal(output)
	mustIngest(t, sess,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "m"},
		stream.Chunk{Kind: stream.ChunkToolUse, ID: "t1", Name: "cat", JSON: []byte(`{"path":"big.log"}`)},
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use"},
		stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "t1", JSON: content},
	)
	check := func(where string, raw []byte) {
		t.Helper()
		var msgs []struct {
			Content []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
				Content   string `json:"content"`
			} `json:"content"`
		}
		if err := json.Unmarshal(raw, &msgs); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if len(msgs) != 2 || len(msgs[1].Content) != 1 {
			t.Fatalf("%s: %d messages", where, len(msgs))
		}
		r := msgs[1].Content[0]
		if r.Type != "tool_result" || r.ToolUseID != "t1" || r.Content != output {
			t.Fatalf("%s: tool_result differs (%d bytes, want %d)", where, len(r.Content), len(output))
		}
	}
	raw, err := sess.Messages(false)
	if err != nil {
		t.Fatal(err)
	}
	check("live", raw)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m2 := session.NewManager(openAt(t, path))
	sess2, err := m2.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err = sess2.Messages(false)
	if err != nil {
		t.Fatal(err)
	}
	check("after reopen", raw)
}

func TestEndedMessageReplacesItsJournal(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{})
	chunk := strings.Repeat("y", 4096)
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkMessageStart})
	for i := 0; i < 4; i++ { // over the threshold while still streaming
		mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: chunk})
	}
	if err := sess.Flush(); err != nil { // checkpoints the partial block
		t.Fatal(err)
	}
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks WHERE partial = 1`); n != 1 {
		t.Fatalf("%d partial blocks after a checkpoint, want 1", n)
	}
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "end"}, stream.Chunk{Kind: stream.ChunkDone})
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks`); n != 0 {
		t.Fatalf("%d block rows, want 0: the body that ends the message replaces its journal", n)
	}
	msgs := scan(t, s, sess.ID())
	var block struct{ Text string }
	json.Unmarshal(msgs[0].Blocks[0], &block)
	if block.Text != strings.Repeat(chunk, 4)+"end" {
		t.Fatalf("text read back has %d bytes", len(block.Text))
	}
}
