package sessiontest

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// Start is the chunk that opens assistant message id.
func Start(id string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkMessageStart, ID: id, Model: "claude-test"}
}

// Text is a text delta.
func Text(s string) stream.Chunk { return stream.Chunk{Kind: stream.ChunkText, Text: s} }

// Thinking is a thinking delta.
func Thinking(s string) stream.Chunk { return stream.Chunk{Kind: stream.ChunkThinking, Text: s} }

// Signature is the signature of the thinking before it.
func Signature(s string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkSignature, Text: s}
}

// ToolUse is a whole tool call with its input JSON.
func ToolUse(id, name, input string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkToolUse, ID: id, Name: name, JSON: []byte(input)}
}

// ToolUseStart opens a tool call whose input arrives in ToolUseDelta chunks.
func ToolUseStart(id, name string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkToolUseStart, ID: id, Name: name}
}

// ToolUseDelta is a piece of a streamed tool call's input JSON.
func ToolUseDelta(s string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkToolUseDelta, Text: s}
}

// ToolResult is the result of tool call id.
func ToolResult(id, content string) stream.Chunk {
	return stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: id, JSON: []byte(content)}
}

// Done ends the message with stop reason stop and, unless empty, the usage JSON.
func Done(stop, usage string) stream.Chunk {
	c := stream.Chunk{Kind: stream.ChunkDone, StopReason: stop}
	if usage != "" {
		c.Usage = []byte(usage)
	}
	return c
}

// Feed ingests chunks, failing the test on the first error.
func Feed(t testing.TB, s *session.Session, chunks ...stream.Chunk) {
	t.Helper()
	for i, c := range chunks {
		if err := s.Ingest(c); err != nil {
			t.Fatalf("Ingest chunk %d (%s): %v", i, c.Kind, err)
		}
	}
}
