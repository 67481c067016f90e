package session_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func TestBadChunkIsRejectedAndChangesNothing(t *testing.T) {
	bad := []struct {
		name  string
		chunk stream.Chunk
		want  error
	}{
		{"kind zero", stream.Chunk{Text: "x"}, session.ErrInvalidChunk},
		{"unknown kind", stream.Chunk{Kind: 200, Text: "x"}, session.ErrInvalidChunk},
		{"tool_use without id", sessiontest.ToolUse("", "ls", `{}`), session.ErrInvalidChunk},
		{"tool_use input not JSON", sessiontest.ToolUse("t9", "ls", `{"a":`), session.ErrInvalidChunk},
		{"tool_use input missing", stream.Chunk{Kind: stream.ChunkToolUse, ID: "t9", Name: "ls"}, session.ErrInvalidChunk},
		{"tool_use_start without id", sessiontest.ToolUseStart("", "ls"), session.ErrInvalidChunk},
		{"tool_use_delta without start", sessiontest.ToolUseDelta(`{"a":1}`), session.ErrInvalidChunk},
		{"tool_result unknown id", sessiontest.ToolResult("t404", `"x"`), session.ErrUnknownToolUse},
		{"tool_result content number", sessiontest.ToolResult("t1", `42`), session.ErrInvalidChunk},
		{"tool_result content object", sessiontest.ToolResult("t1", `{"type":"text","text":"x"}`), session.ErrInvalidChunk},
		{"tool_result content missing", sessiontest.ToolResult("t1", ``), session.ErrInvalidChunk},
		{"tool_result content broken string", sessiontest.ToolResult("t1", `"abc`), session.ErrInvalidChunk},
		{"tool_result block without type", sessiontest.ToolResult("t1", `[{"text":"x"}]`), session.ErrInvalidChunk},
		{"tool_result text block with number", sessiontest.ToolResult("t1", `[{"type":"text","text":1}]`), session.ErrInvalidChunk},
		{"tool_result raw not object", stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "t1", JSON: []byte(`"x"`), Raw: []byte(`[1]`)}, session.ErrInvalidChunk},
		{"done usage array", sessiontest.Done("end_turn", `[1,2]`), session.ErrInvalidChunk},
		{"done usage string", sessiontest.Done("end_turn", `"lots"`), session.ErrInvalidChunk},
		{"done usage null", sessiontest.Done("end_turn", `null`), session.ErrInvalidChunk},
		{"done usage bad count", sessiontest.Done("end_turn", `{"input_tokens":"many"}`), session.ErrInvalidChunk},
	}
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "hi")
	// An assistant message is open, with a complete tool_use and text still streaming.
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUse("t1", "ls", `{}`), sessiontest.Text("partial"))
	before := sessiontest.Must(s.Messages(true))
	tracker := sessiontest.Must(s.TokenTracker())
	for _, c := range bad {
		err := s.Ingest(c.chunk)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
			continue
		}
		if after := sessiontest.Must(s.Messages(true)); !bytes.Equal(before, after) {
			t.Fatalf("%s changed the session:\nbefore %s\nafter  %s", c.name, before, after)
		}
	}
	if got := sessiontest.Must(s.TokenTracker()); got != tracker {
		t.Errorf("rejected chunks changed the tracker: %+v -> %+v", tracker, got)
	}
	// The stream goes on where it was: the text block is still the one streaming.
	sessiontest.Feed(t, s, sessiontest.Text(" and more"), sessiontest.Done("end_turn", `{"input_tokens":1,"output_tokens":2}`))
	msgs := sessiontest.Messages(t, s)
	blocks := sessiontest.Content(t, msgs[1])
	if len(msgs) != 2 || len(blocks) != 2 || blocks[1]["text"] != "partial and more" {
		t.Errorf("after rejected chunks: %v", msgs)
	}
}

func TestChunkErrorNamesTheChunk(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	err := s.Ingest(sessiontest.ToolUseDelta("{"))
	if err == nil || !strings.Contains(err.Error(), "tool_use_delta") {
		t.Errorf("err = %v, want it to name the tool_use_delta chunk", err)
	}
	if got := stream.ChunkKind(200).String(); got != "unknown" {
		t.Errorf("ChunkKind(200).String() = %q", got)
	}
}
