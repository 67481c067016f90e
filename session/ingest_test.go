package session_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

func TestDeltasJoinIntoOneBlockPerKind(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	// A signature as the API sends it, plus characters JSON encoders like to escape.
	sig := "EqQBCkYIARgCKkD+/=<>&\u2028\u00e9\\\"x"
	feed(t, s,
		start("msg_1"),
		thinking("Let me "), thinking("think"), thinking(" it over."),
		signature(sig),
		text("Hello, "), text("wor"), text("ld"),
		done("end_turn", `{"input_tokens":3,"output_tokens":4}`),
	)
	msgs := messages(t, s)
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1: %v", len(msgs), msgs)
	}
	blocks := content(t, msgs[0])
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
	e := newEnv(t)
	s := e.create(t)
	feed(t, s,
		start("m"),
		thinking("first"), signature("sig-1"),
		thinking("second"), // a new block: the signature ended the first
		text("answer"),
		signature("sig-lonely"), // a signature with no thinking before it
		done("end_turn", ""),
	)
	got := content(t, messages(t, s)[0])
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
	e := newEnv(t)
	s := e.create(t)
	feed(t, s,
		start("m"),
		thinking("visible"),
		session.Chunk{Kind: session.ChunkRedactedThinking, Text: "EmwKAhgBEgy3va3pzix/LafPsn4a"},
		thinking("more"),
		done("end_turn", ""),
	)
	got := content(t, messages(t, s)[0])
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
		chunks []session.Chunk
		want   map[string]any
	}{
		{"complete", []session.Chunk{toolUse("t1", "read", `{"path": "a.go", "lines": [1, 2], "opts": {"x": null}}`)},
			map[string]any{"type": "tool_use", "id": "t1", "name": "read",
				"input": decode(t, `{"path":"a.go","lines":[1,2],"opts":{"x":null}}`)}},
		{"streamed", []session.Chunk{toolUseStart("t2", "write"), toolUseDelta(`{"pa`), toolUseDelta(`th": "b.go",`), toolUseDelta(` "n": 1}`)},
			map[string]any{"type": "tool_use", "id": "t2", "name": "write", "input": decode(t, `{"path":"b.go","n":1}`)}},
		{"streamed empty", []session.Chunk{toolUseStart("t3", "ls")},
			map[string]any{"type": "tool_use", "id": "t3", "name": "ls", "input": map[string]any{}}},
		{"streamed blank", []session.Chunk{toolUseStart("t4", "ls"), toolUseDelta(""), toolUseDelta("  \n")},
			map[string]any{"type": "tool_use", "id": "t4", "name": "ls", "input": map[string]any{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			s := e.create(t)
			feed(t, s, start("m"))
			feed(t, s, c.chunks...)
			feed(t, s, done("tool_use", ""))
			got := content(t, messages(t, s)[0])
			if len(got) != 1 || !reflect.DeepEqual(got[0], c.want) {
				t.Fatalf("content = %#v\nwant [%#v]", got, c.want)
			}
		})
	}
}

func TestStreamedToolInputThatIsNotJSONIsKeptRaw(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	raw := `{"path": "a.go", "content": "unterminated`
	feed(t, s, start("m"), toolUseStart("t1", "write"), toolUseDelta(raw[:10]), toolUseDelta(raw[10:]), done("tool_use", ""))
	b := content(t, messages(t, s)[0])[0]
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
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "list and read")
	feed(t, s,
		start("msg_a"), text("Looking."), toolUse("t1", "ls", `{}`), toolUse("t2", "read", `{"p":"x"}`), done("tool_use", ""),
		session.Chunk{Kind: session.ChunkToolResult, ToolUseID: "t1", JSON: []byte(`"a.go\nb.go"`),
			Raw: []byte(`{"stdout":"a.go\nb.go","stderr":"","exitCode":0,"durationMs":12}`)},
		session.Chunk{Kind: session.ChunkToolResult, ToolUseID: "t2", IsError: true,
			JSON: []byte(`[{"type":"text","text":"no such file"}]`)},
		text("Done"), text("."), // no message_start: the next assistant message opens by itself
		done("end_turn", ""),
	)
	envs := envelopes(t, s)
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
		{"type": "tool_result", "tool_use_id": "t2", "content": decode(t, `[{"type":"text","text":"no such file"}]`), "is_error": true},
	}
	if got := content(t, results); !reflect.DeepEqual(got, wantResults) {
		t.Errorf("tool results = %#v\nwant %#v", got, wantResults)
	}
	wantRaw := map[string]any{"t1": decode(t, `{"stdout":"a.go\nb.go","stderr":"","exitCode":0,"durationMs":12}`)}
	if !reflect.DeepEqual(envs[2]["toolUseResults"], wantRaw) {
		t.Errorf("toolUseResults = %#v, want %#v", envs[2]["toolUseResults"], wantRaw)
	}
	last := envs[3]["message"].(map[string]any)
	if got := content(t, last); len(got) != 1 || got[0]["text"] != "Done." {
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
	e := newEnv(t)
	s := e.create(t)
	usage := `{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":7,"service_tier":"standard","server_tool_use":{"web_search_requests":1}}`
	feed(t, s, start("m"), text("Human"),
		session.Chunk{Kind: session.ChunkDone, StopReason: "stop_sequence", StopSequence: "\n\nHuman:", Usage: []byte(usage)})
	env := envelopes(t, s)[0]
	msg := env["message"].(map[string]any)
	if msg["stop_reason"] != "stop_sequence" || msg["stop_sequence"] != "\n\nHuman:" {
		t.Errorf("stop fields = %v / %q", msg["stop_reason"], msg["stop_sequence"])
	}
	if !reflect.DeepEqual(msg["usage"], decode(t, usage)) {
		t.Errorf("usage = %#v, want %s verbatim", msg["usage"], usage)
	}
	if env["status"] != "complete" {
		t.Errorf("status = %v, want complete", env["status"])
	}
}

func TestErrorChunkEndsMessageWithStatusError(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m1"), text("half an ans"), session.Chunk{Kind: session.ChunkError, Text: "overloaded_error: try later"})
	feed(t, s, start("m2"), text("retry"), done("end_turn", ""))
	envs := envelopes(t, s)
	if len(envs) != 2 {
		t.Fatalf("got %d messages, want 2", len(envs))
	}
	if envs[0]["status"] != "error" || envs[0]["error"] != "overloaded_error: try later" {
		t.Errorf("first message status/error = %v / %v", envs[0]["status"], envs[0]["error"])
	}
	if got := content(t, envs[0]["message"].(map[string]any)); len(got) != 1 || got[0]["text"] != "half an ans" {
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
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m1"), text("cut o"), start("m2"), text("whole"), done("end_turn", ""))
	envs := envelopes(t, s)
	if len(envs) != 2 {
		t.Fatalf("got %d messages, want 2", len(envs))
	}
	first, second := envs[0]["message"].(map[string]any), envs[1]["message"].(map[string]any)
	if envs[0]["status"] != "interrupted" || first["id"] != "m1" || content(t, first)[0]["text"] != "cut o" {
		t.Errorf("first = %v", envs[0])
	}
	if envs[1]["status"] != "complete" || second["id"] != "m2" || content(t, second)[0]["text"] != "whole" {
		t.Errorf("second = %v", envs[1])
	}
}

func TestUserMessageWhileStreamingInterruptsAssistant(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "write a poem")
	feed(t, s, start("m1"), thinking("hmm"), text("Roses are"))
	returned := prompt(t, s, "stop, write prose")
	envs := envelopes(t, s)
	if len(envs) != 3 {
		t.Fatalf("got %d messages, want 3", len(envs))
	}
	if envs[1]["status"] != "interrupted" {
		t.Errorf("cut-off assistant status = %v, want interrupted", envs[1]["status"])
	}
	wantCut := []map[string]any{{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Roses are"}}
	if got := content(t, envs[1]["message"].(map[string]any)); !reflect.DeepEqual(got, wantCut) {
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
	e := newEnv(t)
	s := e.create(t)
	prompt(t, s, "go")
	feed(t, s, start("m"), toolUse("t1", "ls", `{}`), done("tool_use", ""))
	before, _ := s.Messages(true)
	_, err := s.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"nope","content":"x"}]`))
	if !errors.Is(err, session.ErrUnknownToolUse) {
		t.Fatalf("unknown tool_use_id: err = %v, want ErrUnknownToolUse", err)
	}
	after, _ := s.Messages(true)
	if string(before) != string(after) {
		t.Fatalf("a rejected user message changed the session:\n%s\n%s", before, after)
	}
	env := decodeObject(t, must(s.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]`))))
	if env["type"] != "tool_result" || env["turn"] != float64(0) {
		t.Errorf("user tool_result envelope type/turn = %v/%v, want tool_result/0", env["type"], env["turn"])
	}
}

func TestToolResultForToolUseRecordedBeforeReopen(t *testing.T) {
	e := newEnv(t)
	s := e.create(t)
	id := s.ID()
	prompt(t, s, "go")
	feed(t, s, start("m"), toolUse("t1", "bash", `{"cmd":"make"}`), toolUseStart("t2", "ls"), done("tool_use", ""))

	e2 := e.reopen(t)
	s2 := e2.open(t, id)
	// Both the complete and the streamed tool_use are found in the store by this new process.
	feed(t, s2, toolResult("t1", `"built"`), toolResult("t2", `"a.go"`))
	if err := s2.Ingest(toolResult("t3", `"?"`)); !errors.Is(err, session.ErrUnknownToolUse) {
		t.Errorf("tool_result for an id never recorded: err = %v, want ErrUnknownToolUse", err)
	}
	msgs := messages(t, s2)
	if len(msgs) != 3 {
		t.Fatalf("got %d messages, want 3", len(msgs))
	}
	got := content(t, msgs[2])
	if len(got) != 2 || got[0]["tool_use_id"] != "t1" || got[1]["tool_use_id"] != "t2" {
		t.Errorf("tool results = %v", got)
	}
}

func TestToolResultWhileToolUseStillStreaming(t *testing.T) {
	// The stream has no tool_use stop chunk: a tool_use_start block ends when the next
	// block or message begins. A tool result for it may come straight after its input.
	e := newEnv(t)
	s := e.create(t)
	feed(t, s, start("m"), toolUseStart("t1", "ls"), toolUseDelta(`{"dir":"."}`))
	if err := s.Ingest(toolResult("t1", `"a.go"`)); err != nil {
		t.Fatalf("tool_result for a tool_use still streaming was rejected: %v", err)
	}
	msgs := messages(t, s)
	if len(msgs) != 2 || content(t, msgs[0])[0]["id"] != "t1" || content(t, msgs[1])[0]["tool_use_id"] != "t1" {
		t.Errorf("messages = %v", msgs)
	}
}
