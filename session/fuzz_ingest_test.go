package session_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// A fuzz program is a stream of chunks: chunks separated by 0x1e, each a kind byte then
// fields separated by 0x1f, which fill the chunk's fields in the order decodeChunk gives.
const (
	chunkSep = "\x1e"
	fieldSep = "\x1f"
)

// decodeChunk makes a chunk of one encoded chunk.
func decodeChunk(enc string) stream.Chunk {
	if enc == "" {
		return stream.Chunk{}
	}
	c := stream.Chunk{Kind: stream.ChunkKind(enc[0]%14 + 1)}
	f := strings.Split(enc[1:], fieldSep)
	field := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	optional := func(i int) []byte {
		if s := field(i); s != "" {
			return []byte(s)
		}
		return nil
	}
	switch c.Kind {
	case stream.ChunkMessageStart:
		c.ID, c.Model, c.State = field(0), field(1), optional(2)
	case stream.ChunkToolUse:
		c.ID, c.Name, c.JSON = field(0), field(1), []byte(field(2))
	case stream.ChunkToolUseStart:
		c.ID, c.Name = field(0), field(1)
	case stream.ChunkToolResult:
		c.ToolUseID, c.JSON, c.Raw, c.IsError = field(0), []byte(field(1)), optional(2), len(f) > 3
	case stream.ChunkDone:
		c.StopReason, c.Usage, c.ID = field(0), optional(1), field(2)
	case stream.ChunkBlock, stream.ChunkBlockStart, stream.ChunkBlockFields:
		c.JSON = []byte(field(0))
	default:
		c.Text = field(0)
	}
	return c
}

// encodeChunk is decodeChunk's inverse for the seeds.
func encodeChunk(kind stream.ChunkKind, fields ...string) string {
	return string(rune(kind-1)) + strings.Join(fields, fieldSep)
}

// seedPrograms are streams written by hand, for when the real fixtures are absent, and
// the edges they do not reach.
func seedPrograms() []string {
	k := encodeChunk
	return []string{
		strings.Join([]string{k(stream.ChunkMessageStart, "msg_1", "m"), k(stream.ChunkThinking, "hm"), k(stream.ChunkSignature, "sig"),
			k(stream.ChunkText, "héllo"), k(stream.ChunkToolUse, "t1", "Read", `{"path":"a"}`), k(stream.ChunkDone, "tool_use", `{"input_tokens":3,"output_tokens":4}`),
			k(stream.ChunkToolResult, "t1", `"ok"`, `{"stdout":"ok","exitCode":0}`)}, chunkSep),
		strings.Join([]string{k(stream.ChunkToolUseStart, "t2", "Bash"), k(stream.ChunkToolUseDelta, `{"cmd":`), k(stream.ChunkToolUseDelta, `"ls"}`),
			k(stream.ChunkError, "cut"), k(stream.ChunkToolResult, "t2", `[{"type":"text","text":"x"}]`, "", "err")}, chunkSep),
		strings.Join([]string{k(stream.ChunkBlockStart, `{"type":"server_tool_use","id":"s1"}`), k(stream.ChunkBlockFields, `{"name":"web_search"}`),
			k(stream.ChunkBlock, `{"type":"web_search_tool_result","tool_use_id":"s1","content":[]}`), k(stream.ChunkRedactedThinking, "abc"), k(stream.ChunkDone, "end_turn", "", "msg_2")}, chunkSep),
	}
}

// sseProgram turns an Anthropic SSE stream into a program, as the stream adapter would.
func sseProgram(sse []byte) string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(sse))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type    string `json:"type"`
			Message struct{ ID, Model string }
			Block   struct{ Type, ID, Name string } `json:"content_block"`
			Delta   struct {
				Type, Text, Thinking, Signature, StopReason string
				PartialJSON                                 string `json:"partial_json"`
			}
		}
		if json.Unmarshal([]byte(data), &ev) != nil {
			continue
		}
		switch d := ev.Delta; {
		case ev.Type == "message_start":
			out = append(out, encodeChunk(stream.ChunkMessageStart, ev.Message.ID, ev.Message.Model))
		case ev.Type == "content_block_start" && ev.Block.Type == "tool_use":
			out = append(out, encodeChunk(stream.ChunkToolUseStart, ev.Block.ID, ev.Block.Name))
		case d.Type == "text_delta":
			out = append(out, encodeChunk(stream.ChunkText, d.Text))
		case d.Type == "thinking_delta":
			out = append(out, encodeChunk(stream.ChunkThinking, d.Thinking))
		case d.Type == "signature_delta":
			out = append(out, encodeChunk(stream.ChunkSignature, d.Signature))
		case d.Type == "input_json_delta":
			out = append(out, encodeChunk(stream.ChunkToolUseDelta, d.PartialJSON))
		case ev.Type == "message_stop":
			out = append(out, encodeChunk(stream.ChunkDone, "end_turn"))
		}
	}
	return strings.Join(out, chunkSep)
}

// FuzzIngest streams random chunk sequences into a session. Every rejected chunk must be
// a caller error that leaves the session exactly as it was, and what is recorded must
// read back as JSON messages, the same after a flush.
func FuzzIngest(f *testing.F) {
	for _, p := range seedPrograms() {
		f.Add(p)
	}
	for _, sse := range fixtures.Files("sse") {
		if p := sseProgram(sse); p != "" {
			f.Add(p)
		}
	}
	e := fuzzEnv(f)
	f.Fuzz(func(t *testing.T, program string) {
		s := e.Create(t)
		defer s.Close()
		for _, enc := range strings.Split(program, chunkSep) {
			before, err := s.Messages(true)
			if err != nil {
				t.Fatalf("Messages: %v", err)
			}
			c := decodeChunk(enc)
			if err := s.Ingest(c); err != nil {
				if !isCallerError(err) {
					t.Fatalf("Ingest(%+v) = %v, not a caller error", c, err)
				}
				if after, _ := s.Messages(true); !bytes.Equal(before, after) {
					t.Fatalf("rejected chunk %+v (%v) changed the session:\n%s\n->\n%s", c, err, before, after)
				}
			}
		}
		raw := checkMessagesJSON(t, s)
		if err := s.Flush(); err != nil {
			t.Fatalf("Flush: %v", err)
		}
		if after := checkMessagesJSON(t, s); !bytes.Equal(raw, after) {
			t.Fatalf("messages changed by flush:\n%s\n->\n%s", raw, after)
		}
	})
}

// checkMessagesJSON returns the session's messages, failing unless they are a JSON array
// of objects each with a role and a content array.
func checkMessagesJSON(t *testing.T, s *session.Session) []byte {
	t.Helper()
	raw, err := s.Messages(false)
	if err != nil {
		t.Fatalf("Messages: %v", err)
	}
	var msgs []struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatalf("messages are not JSON: %v\n%s", err, raw)
	}
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			t.Fatalf("message %d has role %q:\n%s", i, m.Role, raw)
		}
	}
	return raw
}
