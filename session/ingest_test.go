package session_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

func TestDeltasJoinIntoOneBlockPerKind(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	// A signature as the API sends it, plus characters JSON encoders like to escape.
	sig := "EqQBCkYIARgCKkD+/=<>&\u2028\u00e9\\\"x"
	sessiontest.Feed(t, s,
		sessiontest.Start("msg_1"),
		sessiontest.Thinking("Let me "), sessiontest.Thinking("think"), sessiontest.Thinking(" it over."),
		sessiontest.Signature(sig),
		sessiontest.Text("Hello, "), sessiontest.Text("wor"), sessiontest.Text("ld"),
		sessiontest.Done("end_turn", `{"input_tokens":3,"output_tokens":4}`),
	)
	msgs := sessiontest.Messages(t, s)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1: %v", len(msgs), msgs)
	}
	blocks := sessiontest.Content(t, msgs[0])
	want := []map[string]any{
		{"type": "thinking", "thinking": "Let me think it over.", "signature": sig},
		{"type": "text", "text": "Hello, world"},
	}
	if !reflect.DeepEqual(blocks, want) {
		t.Fatalf("content = %#v\nwant %#v", blocks, want)
	}
	if msgs[0]["role"] != "assistant" || msgs[0]["id"] != "msg_1" || msgs[0]["model"] != "claude-test" {
		t.Errorf("message fields = %v", msgs[0])
	}
}

func TestSignatureEndsThinkingBlock(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s,
		sessiontest.Start("m"),
		sessiontest.Thinking("first"), sessiontest.Signature("sig-1"),
		sessiontest.Thinking("second"), // a new block: the signature ended the first
		sessiontest.Text("answer"),
		sessiontest.Signature("sig-lonely"), // a signature with no thinking before it
		sessiontest.Done("end_turn", ""),
	)
	got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
	want := []map[string]any{
		{"type": "thinking", "thinking": "first", "signature": "sig-1"},
		{"type": "thinking", "thinking": "second"}, // no signature key at all
		{"type": "text", "text": "answer"},
		{"type": "thinking", "thinking": "", "signature": "sig-lonely"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("content = %#v\nwant %#v", got, want)
	}
}

func TestRedactedThinkingIsItsOwnBlock(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s,
		sessiontest.Start("m"),
		sessiontest.Thinking("visible"),
		stream.Chunk{Kind: stream.ChunkRedactedThinking, Text: "EmwKAhgBEgy3va3pzix/LafPsn4a"},
		sessiontest.Thinking("more"),
		sessiontest.Done("end_turn", ""),
	)
	got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
	want := []map[string]any{
		{"type": "thinking", "thinking": "visible"},
		{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"},
		{"type": "thinking", "thinking": "more"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("content = %#v\nwant %#v", got, want)
	}
}

func TestToolUseCompleteAndStreamed(t *testing.T) {
	cases := []struct {
		name   string
		chunks []stream.Chunk
		want   map[string]any
	}{
		{"complete", []stream.Chunk{sessiontest.ToolUse("t1", "read", `{"path": "a.go", "lines": [1, 2], "opts": {"x": null}}`)},
			map[string]any{"type": "tool_use", "id": "t1", "name": "read",
				"input": sessiontest.Decode(t, `{"path":"a.go","lines":[1,2],"opts":{"x":null}}`)}},
		{"streamed", []stream.Chunk{sessiontest.ToolUseStart("t2", "write"), sessiontest.ToolUseDelta(`{"pa`), sessiontest.ToolUseDelta(`th": "b.go",`), sessiontest.ToolUseDelta(` "n": 1}`)},
			map[string]any{"type": "tool_use", "id": "t2", "name": "write", "input": sessiontest.Decode(t, `{"path":"b.go","n":1}`)}},
		{"streamed empty", []stream.Chunk{sessiontest.ToolUseStart("t3", "ls")},
			map[string]any{"type": "tool_use", "id": "t3", "name": "ls", "input": map[string]any{}}},
		{"streamed blank", []stream.Chunk{sessiontest.ToolUseStart("t4", "ls"), sessiontest.ToolUseDelta(""), sessiontest.ToolUseDelta("  \n")},
			map[string]any{"type": "tool_use", "id": "t4", "name": "ls", "input": map[string]any{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := sessiontest.NewEnv(t)
			s := e.Create(t)
			sessiontest.Feed(t, s, sessiontest.Start("m"))
			sessiontest.Feed(t, s, c.chunks...)
			sessiontest.Feed(t, s, sessiontest.Done("tool_use", ""))
			got := sessiontest.Content(t, sessiontest.Messages(t, s)[0])
			if len(got) != 1 || !reflect.DeepEqual(got[0], c.want) {
				t.Fatalf("content = %#v\nwant [%#v]", got, c.want)
			}
		})
	}
}

func TestStreamedToolInputThatIsNotJSONIsKeptRaw(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	raw := `{"path": "a.go", "content": "unterminated`
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUseStart("t1", "write"), sessiontest.ToolUseDelta(raw[:10]), sessiontest.ToolUseDelta(raw[10:]), sessiontest.Done("tool_use", ""))
	b := sessiontest.Content(t, sessiontest.Messages(t, s)[0])[0]
	if b["raw_input"] != raw {
		t.Errorf("raw_input = %q, want %q", b["raw_input"], raw)
	}
	if !reflect.DeepEqual(b["input"], map[string]any{}) {
		t.Errorf("input = %#v, want {}", b["input"])
	}
	if msg, _ := b["input_error"].(string); msg == "" {
		t.Errorf("input_error missing: %v", b)
	}
	if b["id"] != "t1" || b["name"] != "write" {
		t.Errorf("id/name lost: %v", b)
	}
}

func TestToolResultsFormUserMessageAndTextStartsNextAssistant(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "list and read")
	sessiontest.Feed(t, s,
		sessiontest.Start("msg_a"), sessiontest.Text("Looking."), sessiontest.ToolUse("t1", "ls", `{}`), sessiontest.ToolUse("t2", "read", `{"p":"x"}`), sessiontest.Done("tool_use", ""),
		stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "t1", JSON: []byte(`"a.go\nb.go"`),
			Raw: []byte(`{"stdout":"a.go\nb.go","stderr":"","exitCode":0,"durationMs":12}`)},
		stream.Chunk{Kind: stream.ChunkToolResult, ToolUseID: "t2", IsError: true,
			JSON: []byte(`[{"type":"text","text":"no such file"}]`)},
		sessiontest.Text("Done"), sessiontest.Text("."), // no message_start: the next assistant message opens by itself
		sessiontest.Done("end_turn", ""),
	)
	envs := sessiontest.Envelopes(t, s)
	var types []string
	for _, e := range envs {
		types = append(types, e["type"].(string))
	}
	if want := []string{"user", "assistant", "tool_result", "assistant"}; !reflect.DeepEqual(types, want) {
		t.Fatalf("envelope types = %v, want %v", types, want)
	}
	results := envs[2]["message"].(map[string]any)
	if results["role"] != "user" {
		t.Errorf("tool results role = %v, want user", results["role"])
	}
	wantResults := []map[string]any{
		{"type": "tool_result", "tool_use_id": "t1", "content": "a.go\nb.go", "is_error": false},
		{"type": "tool_result", "tool_use_id": "t2", "content": sessiontest.Decode(t, `[{"type":"text","text":"no such file"}]`), "is_error": true},
	}
	if got := sessiontest.Content(t, results); !reflect.DeepEqual(got, wantResults) {
		t.Errorf("tool results = %#v\nwant %#v", got, wantResults)
	}
	wantRaw := map[string]any{"t1": sessiontest.Decode(t, `{"stdout":"a.go\nb.go","stderr":"","exitCode":0,"durationMs":12}`)}
	if !reflect.DeepEqual(envs[2]["toolUseResults"], wantRaw) {
		t.Errorf("toolUseResults = %#v, want %#v", envs[2]["toolUseResults"], wantRaw)
	}
	last := envs[3]["message"].(map[string]any)
	if got := sessiontest.Content(t, last); len(got) != 1 || got[0]["text"] != "Done." {
		t.Errorf("follow-up assistant content = %v", got)
	}
	if _, ok := last["id"]; ok {
		t.Errorf("follow-up assistant got an id without message_start: %v", last)
	}
	for i, env := range envs {
		if env["status"] != "complete" {
			t.Errorf("message %d status = %v, want complete", i, env["status"])
		}
	}
}

func TestDoneSetsStopReasonSequenceAndUsage(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	usage := `{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":7,"service_tier":"standard","server_tool_use":{"web_search_requests":1}}`
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.Text("Human"),
		stream.Chunk{Kind: stream.ChunkDone, StopReason: "stop_sequence", StopSequence: "\n\nHuman:", Usage: []byte(usage)})
	env := sessiontest.Envelopes(t, s)[0]
	msg := env["message"].(map[string]any)
	if msg["stop_reason"] != "stop_sequence" || msg["stop_sequence"] != "\n\nHuman:" {
		t.Errorf("stop fields = %v / %q", msg["stop_reason"], msg["stop_sequence"])
	}
	if !reflect.DeepEqual(msg["usage"], sessiontest.Decode(t, usage)) {
		t.Errorf("usage = %#v, want %s verbatim", msg["usage"], usage)
	}
	if env["status"] != "complete" {
		t.Errorf("status = %v, want complete", env["status"])
	}
}

func TestErrorChunkEndsMessageWithStatusError(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.Text("half an ans"), stream.Chunk{Kind: stream.ChunkError, Text: "overloaded_error: try later"})
	sessiontest.Feed(t, s, sessiontest.Start("m2"), sessiontest.Text("retry"), sessiontest.Done("end_turn", ""))
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != 2 {
		t.Fatalf("got %d messages, want 2", len(envs))
	}
	if envs[0]["status"] != "error" || envs[0]["error"] != "overloaded_error: try later" {
		t.Errorf("first message status/error = %v / %v", envs[0]["status"], envs[0]["error"])
	}
	if got := sessiontest.Content(t, envs[0]["message"].(map[string]any)); len(got) != 1 || got[0]["text"] != "half an ans" {
		t.Errorf("what arrived before the error was not kept: %v", got)
	}
	if envs[1]["status"] != "complete" {
		t.Errorf("second message status = %v", envs[1]["status"])
	}
	if _, ok := envs[1]["error"]; ok {
		t.Errorf("error leaked into the next message: %v", envs[1])
	}
}

func TestMessageStartWhileStreamingInterruptsTheOpenMessage(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.Text("cut o"), sessiontest.Start("m2"), sessiontest.Text("whole"), sessiontest.Done("end_turn", ""))
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != 2 {
		t.Fatalf("got %d messages, want 2", len(envs))
	}
	first, second := envs[0]["message"].(map[string]any), envs[1]["message"].(map[string]any)
	if envs[0]["status"] != "interrupted" || first["id"] != "m1" || sessiontest.Content(t, first)[0]["text"] != "cut o" {
		t.Errorf("first = %v", envs[0])
	}
	if envs[1]["status"] != "complete" || second["id"] != "m2" || sessiontest.Content(t, second)[0]["text"] != "whole" {
		t.Errorf("second = %v", envs[1])
	}
}

func TestUserMessageWhileStreamingInterruptsAssistant(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "write a poem")
	sessiontest.Feed(t, s, sessiontest.Start("m1"), sessiontest.Thinking("hmm"), sessiontest.Text("Roses are"))
	returned := sessiontest.Prompt(t, s, "stop, write prose")
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != 3 {
		t.Fatalf("got %d messages, want 3", len(envs))
	}
	if envs[1]["status"] != "interrupted" {
		t.Errorf("cut-off assistant status = %v, want interrupted", envs[1]["status"])
	}
	wantCut := []map[string]any{{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Roses are"}}
	if got := sessiontest.Content(t, envs[1]["message"].(map[string]any)); !reflect.DeepEqual(got, wantCut) {
		t.Errorf("cut-off content = %v, want %v", got, wantCut)
	}
	if envs[2]["type"] != "user" || envs[2]["status"] != "complete" {
		t.Errorf("new prompt = %v", envs[2])
	}
	if !reflect.DeepEqual(returned, envs[2]) {
		t.Errorf("AppendUserMessage returned %v\nbut Messages(true) holds %v", returned, envs[2])
	}
}

func TestUserToolResultMessageNeedsKnownToolUse(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Prompt(t, s, "go")
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUse("t1", "ls", `{}`), sessiontest.Done("tool_use", ""))
	before, _ := s.Messages(true)
	_, err := s.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"nope","content":"x"}]`))
	if !errors.Is(err, session.ErrUnknownToolUse) {
		t.Fatalf("unknown tool_use_id: err = %v, want ErrUnknownToolUse", err)
	}
	after, _ := s.Messages(true)
	if string(before) != string(after) {
		t.Fatalf("a rejected user message changed the session:\n%s\n%s", before, after)
	}
	env := sessiontest.DecodeObject(t, sessiontest.Must(s.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]`))))
	if env["type"] != "tool_result" || env["turn"] != float64(0) {
		t.Errorf("user tool_result envelope type/turn = %v/%v, want tool_result/0", env["type"], env["turn"])
	}
}

func TestToolResultForToolUseRecordedBeforeReopen(t *testing.T) {
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	id := s.ID()
	sessiontest.Prompt(t, s, "go")
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUse("t1", "bash", `{"cmd":"make"}`), sessiontest.ToolUseStart("t2", "ls"), sessiontest.Done("tool_use", ""))

	e2 := e.Reopen(t)
	s2 := e2.Open(t, id)
	// Both the complete and the streamed tool_use are found in the store by this new process.
	sessiontest.Feed(t, s2, sessiontest.ToolResult("t1", `"built"`), sessiontest.ToolResult("t2", `"a.go"`))
	if err := s2.Ingest(sessiontest.ToolResult("t3", `"?"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for an id never recorded: err = %v, want ErrUnknownToolUse", err)
	}
	msgs := sessiontest.Messages(t, s2)
	if len(msgs) != 3 {
		t.Fatalf("got %d messages, want 3", len(msgs))
	}
	got := sessiontest.Content(t, msgs[2])
	if len(got) != 2 || got[0]["tool_use_id"] != "t1" || got[1]["tool_use_id"] != "t2" {
		t.Errorf("tool results = %v", got)
	}
}

func TestToolResultWhileToolUseStillStreaming(t *testing.T) {
	// The stream has no tool_use stop chunk: a tool_use_start block ends when the next
	// block or message begins. A tool result for it may come straight after its input.
	e := sessiontest.NewEnv(t)
	s := e.Create(t)
	sessiontest.Feed(t, s, sessiontest.Start("m"), sessiontest.ToolUseStart("t1", "ls"), sessiontest.ToolUseDelta(`{"dir":"."}`))
	if err := s.Ingest(sessiontest.ToolResult("t1", `"a.go"`)); err != nil {
		t.Fatalf("tool_result for a tool_use still streaming was rejected: %v", err)
	}
	msgs := sessiontest.Messages(t, s)
	if len(msgs) != 2 || sessiontest.Content(t, msgs[0])[0]["id"] != "t1" || sessiontest.Content(t, msgs[1])[0]["tool_use_id"] != "t1" {
		t.Errorf("messages = %v", msgs)
	}
}
