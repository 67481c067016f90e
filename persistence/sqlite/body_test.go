package sqlite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// TestBodiesAreTheRowsEncoded: every message's body, made from what the writer held of the
// message (or read back from its rows), is byte for byte the ASCII form of the envelope its
// rows make: thinking with its signature, streamed tool input, tool results large enough to
// be holes, a message cut off by close, message fields, state and usage.
func TestBodiesAreTheRowsEncoded(t *testing.T) {
	s, _ := openTemp(t)
	m := session.NewManager(s)
	sess := mustCreate(t, m, session.CreateOptions{ProjectPath: "/p"})
	if _, err := sess.AppendUserMessage([]byte(`"read the file → please ✓"`)); err != nil {
		t.Fatal(err)
	}
	mustIngest(t, sess,
		stream.Chunk{Kind: stream.ChunkMessageStart, ID: "msg_1", Model: "claude-x", RequestID: "req_1"},
		stream.Chunk{Kind: stream.ChunkThinking, Text: "let me think "},
		stream.Chunk{Kind: stream.ChunkThinking, Text: "about it"},
		stream.Chunk{Kind: stream.ChunkSignature, Text: "c2lnbmF0dXJl"},
		stream.Chunk{Kind: stream.ChunkText, Text: "Reading — now."},
		stream.Chunk{Kind: stream.ChunkToolUseStart, ID: "toolu_1", Name: "Read"},
		stream.Chunk{Kind: stream.ChunkToolUseDelta, Text: `{"path":`},
		stream.Chunk{Kind: stream.ChunkToolUseDelta, Text: `"a.go"}`},
		stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_2", Name: "Bash", JSON: []byte(`{"cmd":"ls"}`)},
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use", Usage: []byte(`{"input_tokens":12,"output_tokens":7}`)},
	)
	large := strings.Repeat("1→ package main ✓\n", BlobThreshold/10)
	results := `[{"type":"tool_result","tool_use_id":"toolu_1","content":"` + strings.ReplaceAll(large, "\n", `\n`) + `"},` +
		`{"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"a.go"}],"is_error":true}]`
	if _, err := sess.AppendUserMessage([]byte(results)); err != nil {
		t.Fatal(err)
	}
	mustIngest(t, sess, stream.Chunk{Kind: stream.ChunkText, Text: "cut off by the close"})
	sess.Close()
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	rows := scan(t, s, sess.ID())
	bodies := 0
	err := s.ScanEncoded(sess.ID(), 0, func(enc *session.StoredMessage) error {
		row := rows[enc.Seq]
		want := jsonenc.AppendASCII(nil, session.AppendEnvelope(nil, &row))
		if got := bytes.Join(enc.Encoded, nil); !bytes.Equal(got, want) {
			t.Errorf("message %d: body\n%s\nrows\n%s", enc.Seq, got, want)
		}
		bodies++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if bodies != len(rows) || bodies != 4 {
		t.Errorf("%d bodies for %d messages, want 4", bodies, len(rows))
	}
}
