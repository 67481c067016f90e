package sqlite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func TestLargeBlocksGoToBlobsOnce(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{})
	b := mustCreate(t, m, session.CreateOptions{})
	big := strings.Repeat("0123456789abcdef", BlobThreshold/16+1) // its block is over the threshold
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
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blobs`); n != 1 {
		t.Errorf("%d blob rows for one payload stored three times, want 1", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks WHERE blob_id IS NOT NULL AND body IS NULL`); n != 3 {
		t.Errorf("%d blocks point at a blob, want 3", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(DISTINCT blob_id) FROM blocks WHERE blob_id IS NOT NULL`); n != 1 {
		t.Errorf("blocks point at %d different blobs, want 1", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks WHERE body IS NOT NULL AND blob_id IS NULL`); n != 1 {
		t.Errorf("%d inline blocks, want 1 (the small one)", n)
	}
	if size := queryInt(t, db, `SELECT size FROM blobs`); size <= BlobThreshold || size != int64(len(big)+len(`{"type":"text","text":""}`)) {
		t.Errorf("blob size %d", size)
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

func TestCompletedStreamingBlockReplacesItsCheckpoint(t *testing.T) {
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
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks`); n != 1 {
		t.Fatalf("%d block rows, want 1: the complete block replaces its checkpoint", n)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blocks WHERE partial = 0 AND blob_id IS NOT NULL AND body IS NULL`); n != 1 {
		t.Fatalf("the completed large block is not a complete blob-backed block")
	}
	msgs := scan(t, s, sess.ID())
	var block struct{ Text string }
	json.Unmarshal(msgs[0].Blocks[0], &block)
	if block.Text != strings.Repeat(chunk, 4)+"end" {
		t.Fatalf("text read back has %d bytes", len(block.Text))
	}
}
