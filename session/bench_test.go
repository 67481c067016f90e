package session_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

// benchToolOutput is about 28 KB of code-like tool output with the non-ASCII characters real
// output has (Read's "→", test runs' "✓").
func benchToolOutput(seed int) string {
	var b strings.Builder
	for i := 0; b.Len() < 28<<10; i++ {
		fmt.Fprintf(&b, "%6d\u2192  const value%d = compute(\"%d\", item.%d); // \u2713 ok\n", i+seed, i, i*seed, i)
	}
	return b.String()
}

// BenchmarkAppendToolResults measures recording a user message of two 28 KB tool
// results, the bulk of an agent's bytes: validation, the message and its queued Ops.
func BenchmarkAppendToolResults(b *testing.B) {
	e := newEnv(b)
	s := e.create(b)
	for i := 0; i < 2; i++ {
		mustIngestB(b, s, toolUse(fmt.Sprintf("t%d", i), "Read", `{}`))
	}
	content, _ := json.Marshal([]map[string]any{
		{"type": "tool_result", "tool_use_id": "t0", "content": benchToolOutput(1)},
		{"type": "tool_result", "tool_use_id": "t1", "content": benchToolOutput(2)},
	})
	b.SetBytes(int64(len(content)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.AddUserMessage(content, nil, session.MessageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngestTextDelta measures one streamed text delta, the most frequent chunk.
func BenchmarkIngestTextDelta(b *testing.B) {
	e := newEnv(b)
	s := e.create(b)
	delta := text("a delta of twenty ch")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%64 == 0 {
			mustIngestB(b, s, session.Chunk{Kind: session.ChunkDone})
		}
		mustIngestB(b, s, delta)
	}
}

// BenchmarkEncodeEnvelopes measures reading back a 400-message session as one JSON array
// from the stored message bodies.
func BenchmarkEncodeEnvelopes(b *testing.B) {
	e := newEnv(b)
	s := e.create(b)
	for t := 0; t < 100; t++ {
		id := fmt.Sprintf("t%d", t)
		s.AppendUserMessage([]byte(`"please go on"`))
		mustIngestB(b, s, start("m"), thinking("let me think about it"), text("I will read the file."), toolUse(id, "Read", `{"path":"a.go"}`))
		c, _ := json.Marshal([]map[string]any{{"type": "tool_result", "tool_use_id": id, "content": benchToolOutput(t)}})
		if _, err := s.AddUserMessage(c, nil, session.MessageOptions{}); err != nil {
			b.Fatal(err)
		}
		mustIngestB(b, s, text("Done."), session.Chunk{Kind: session.ChunkDone})
	}
	out, err := s.Messages(true)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Messages(true); err != nil {
			b.Fatal(err)
		}
	}
}

func mustIngestB(b *testing.B, s *session.Session, chunks ...session.Chunk) {
	b.Helper()
	for _, c := range chunks {
		if err := s.Ingest(c); err != nil {
			b.Fatal(err)
		}
	}
}
