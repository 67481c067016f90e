package session_test

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/fixtures"
)

// A fuzz program is a stream of chunks: chunks separated by 0x1e, each a kind byte then
// fields separated by 0x1f, which fill the chunk's fields in the order decodeChunk gives.
const (
	chunkSep = "\x1e"
	fieldSep = "\x1f"
)

// decodeChunk makes a chunk of one encoded chunk.
func decodeChunk(enc string) session.Chunk {
	if enc == "" {
		return session.Chunk{}
	}
	c := session.Chunk{Kind: session.ChunkKind(enc[0]%14 + 1)}
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
	case session.ChunkMessageStart:
		c.ID, c.Model, c.State = field(0), field(1), optional(2)
	case session.ChunkToolUse:
		c.ID, c.Name, c.JSON = field(0), field(1), []byte(field(2))
	case session.ChunkToolUseStart:
		c.ID, c.Name = field(0), field(1)
	case session.ChunkToolResult:
		c.ToolUseID, c.JSON, c.Raw, c.IsError = field(0), []byte(field(1)), optional(2), len(f) > 3
	case session.ChunkDone:
		c.StopReason, c.Usage, c.ID = field(0), optional(1), field(2)
	case session.ChunkBlock, session.ChunkBlockStart, session.ChunkBlockFields:
		c.JSON = []byte(field(0))
	default:
		c.Text = field(0)
	}
	return c
}

// encodeChunk is decodeChunk's inverse for the seeds.
func encodeChunk(kind session.ChunkKind, fields ...string) string {
	return string(rune(kind-1)) + strings.Join(fields, fieldSep)
}

// seedPrograms are streams written by hand, for when the real fixtures are absent, and
// the edges they do not reach.
func seedPrograms() []string {
	k := encodeChunk
	return []string{
		strings.Join([]string{k(session.ChunkMessageStart, "msg_1", "m"), k(session.ChunkThinking, "hm"), k(session.ChunkSignature, "sig"),
			k(session.ChunkText, "héllo"), k(session.ChunkToolUse, "t1", "Read", `{"path":"a"}`), k(session.ChunkDone, "tool_use", `{"input_tokens":3,"output_tokens":4}`),
			k(session.ChunkToolResult, "t1", `"ok"`, `{"stdout":"ok","exitCode":0}`)}, chunkSep),
		strings.Join([]string{k(session.ChunkToolUseStart, "t2", "Bash"), k(session.ChunkToolUseDelta, `{"cmd":`), k(session.ChunkToolUseDelta, `"ls"}`),
			k(session.ChunkError, "cut"), k(session.ChunkToolResult, "t2", `[{"type":"text","text":"x"}]`, "", "err")}, chunkSep),
		strings.Join([]string{k(session.ChunkBlockStart, `{"type":"server_tool_use","id":"s1"}`), k(session.ChunkBlockFields, `{"name":"web_search"}`),
			k(session.ChunkBlock, `{"type":"web_search_tool_result","tool_use_id":"s1","content":[]}`), k(session.ChunkRedactedThinking, "abc"), k(session.ChunkDone, "end_turn", "", "msg_2")}, chunkSep),
	}
}

// sseProgram turns an Anthropic SSE stream into a program, as the stream adapter would.
func sseProgram(stream []byte) string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(stream))
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
			out = append(out, encodeChunk(session.ChunkMessageStart, ev.Message.ID, ev.Message.Model))
		case ev.Type == "content_block_start" && ev.Block.Type == "tool_use":
			out = append(out, encodeChunk(session.ChunkToolUseStart, ev.Block.ID, ev.Block.Name))
		case d.Type == "text_delta":
			out = append(out, encodeChunk(session.ChunkText, d.Text))
		case d.Type == "thinking_delta":
			out = append(out, encodeChunk(session.ChunkThinking, d.Thinking))
		case d.Type == "signature_delta":
			out = append(out, encodeChunk(session.ChunkSignature, d.Signature))
		case d.Type == "input_json_delta":
			out = append(out, encodeChunk(session.ChunkToolUseDelta, d.PartialJSON))
		case ev.Type == "message_stop":
			out = append(out, encodeChunk(session.ChunkDone, "end_turn"))
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
	for _, stream := range fixtures.Files("sse") {
		if p := sseProgram(stream); p != "" {
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
