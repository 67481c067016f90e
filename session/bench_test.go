package session_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
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
	e := sessiontest.NewEnv(b)
	s := e.Create(b)
	for i := 0; i < 2; i++ {
		mustIngestB(b, s, sessiontest.ToolUse(fmt.Sprintf("t%d", i), "Read", `{}`))
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
	e := sessiontest.NewEnv(b)
	s := e.Create(b)
	delta := sessiontest.Text("a delta of twenty ch")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%64 == 0 {
			mustIngestB(b, s, stream.Chunk{Kind: stream.ChunkDone})
		}
		mustIngestB(b, s, delta)
	}
}

// BenchmarkEncodeEnvelopes measures reading back a 400-message session as one JSON array
// from the stored message bodies.
func BenchmarkEncodeEnvelopes(b *testing.B) {
	e := sessiontest.NewEnv(b)
	s := e.Create(b)
	for t := 0; t < 100; t++ {
		id := fmt.Sprintf("t%d", t)
		s.AppendUserMessage([]byte(`"please go on"`))
		mustIngestB(b, s, sessiontest.Start("m"), sessiontest.Thinking("let me think about it"), sessiontest.Text("I will read the file."), sessiontest.ToolUse(id, "Read", `{"path":"a.go"}`))
		c, _ := json.Marshal([]map[string]any{{"type": "tool_result", "tool_use_id": id, "content": benchToolOutput(t)}})
		if _, err := s.AddUserMessage(c, nil, session.MessageOptions{}); err != nil {
			b.Fatal(err)
		}
		mustIngestB(b, s, sessiontest.Text("Done."), stream.Chunk{Kind: stream.ChunkDone})
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

func mustIngestB(b *testing.B, s *session.Session, chunks ...stream.Chunk) {
	b.Helper()
	for _, c := range chunks {
		if err := s.Ingest(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriterTurns measures the writer's throughput: agent turns like W1's (a prompt;
// thinking, text and two streamed tool calls; two tool results of 2–28 KB; a short answer)
// recorded back to back and flushed once at the end, as W1 of `make bench` does. The writer
// goroutine, not the recording, bounds W1; ns/op is per turn.
func BenchmarkWriterTurns(b *testing.B) {
	e := sessiontest.NewEnv(b)
	s := e.Create(b)
	input := `{"path":"src/main.go"}`
	var bytes int64
	turn := func(t int) {
		s.AppendUserMessage([]byte(`"go on with step ` + fmt.Sprint(t) + `"`))
		mustIngestB(b, s, sessiontest.Start(fmt.Sprint("msg_", t)))
		for range 20 {
			mustIngestB(b, s, sessiontest.Thinking("weighing the next step "))
		}
		mustIngestB(b, s, stream.Chunk{Kind: stream.ChunkSignature, Text: strings.Repeat("c2ln", 75)})
		for range 50 {
			mustIngestB(b, s, sessiontest.Text("words of the answer "))
		}
		var results []map[string]any
		for k := range 2 {
			id := fmt.Sprintf("t%d_%d", t, k)
			mustIngestB(b, s, sessiontest.ToolUseStart(id, "Read"))
			for i := 0; i < len(input); i += 2 {
				mustIngestB(b, s, sessiontest.ToolUseDelta(input[i:min(i+2, len(input))]))
			}
			out := benchToolOutput(t + k)
			results = append(results, map[string]any{"type": "tool_result", "tool_use_id": id, "content": out[:2<<10+(t*7919+k*104729)%(26<<10)]})
		}
		mustIngestB(b, s, stream.Chunk{Kind: stream.ChunkDone, StopReason: "tool_use", Usage: []byte(`{"input_tokens":1200,"output_tokens":300}`)})
		c, _ := json.Marshal(results)
		bytes += int64(len(c))
		if _, err := s.AddUserMessage(c, nil, session.MessageOptions{}); err != nil {
			b.Fatal(err)
		}
		mustIngestB(b, s, sessiontest.Text("Step done."), stream.Chunk{Kind: stream.ChunkDone, StopReason: "end_turn"})
	}
	b.ResetTimer()
	for i := range b.N {
		turn(i)
	}
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(bytes / int64(b.N))
}
