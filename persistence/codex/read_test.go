package codex

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
)

const rollout = `{"timestamp":"2025-09-25T01:22:20.083Z","type":"session_meta","payload":{"id":"0199-test","cwd":"/repo","git":{"branch":"main"}}}
{"timestamp":"2025-09-25T01:22:20.084Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}}
{"timestamp":"2025-09-25T01:22:21.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"# Context from my IDE\n## My request for Codex:\nfix the build"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0K"}]}}
{"timestamp":"2025-09-25T01:22:22.000Z","type":"turn_context","payload":{"cwd":"/repo/app","model":"gpt-5-codex"}}
{"timestamp":"2025-09-25T01:22:23.000Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"}],"content":null,"encrypted_content":"gAAAA"}}
{"timestamp":"2025-09-25T01:22:23.100Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}
{"timestamp":"2025-09-25T01:22:23.200Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"not json","call_id":"call_2"}}
{"timestamp":"2025-09-25T01:22:24.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"output\":\"a.go\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.25}}"}}
{"timestamp":"2025-09-25T01:22:24.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_2","output":{"content":"bad args","success":false}}}
{"timestamp":"2025-09-25T01:22:25.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":7},"last_token_usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":7}}}}
{"timestamp":"2025-09-25T01:22:25.001Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":7},"last_token_usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":7}}}}
{"timestamp":"2025-09-25T01:22:26.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Fixed."}]}}
{"timestamp":"2025-09-25T01:22:27.000Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}
not a record
`

func TestARolloutBecomesAConversation(t *testing.T) {
	f, err := Read(strings.NewReader(rollout), "rollout-x.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 14 {
		t.Errorf("skipped = %+v, want line 14", f.Skipped)
	}
	var got []string
	for _, r := range f.Records {
		desc := r.Type + "/" + r.Role
		if r.Continues {
			desc += "+"
		}
		got = append(got, desc)
	}
	want := []string{"session_meta/", "user/user", "user/user", "turn_context/", "assistant/assistant", "assistant/assistant+",
		"assistant/assistant+", "tool_result/user", "tool_result/user+", "event_msg/", "event_msg/", "assistant/assistant", "event_msg/"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("records = %v\nwant %v", got, want)
	}
	block := func(i int) map[string]any {
		var b map[string]any
		json.Unmarshal(f.Records[i].Blocks[len(f.Records[i].Blocks)-1].JSON, &b)
		return b
	}
	if b := block(2); b["type"] != "image" || b["source"].(map[string]any)["data"] != "iVBORw0K" {
		t.Errorf("image block = %v", b)
	}
	if b := block(4); b["type"] != "reasoning" || b["encrypted_content"] != "gAAAA" {
		t.Errorf("reasoning block = %v", b)
	}
	if b := block(5); !reflect.DeepEqual(b["input"], map[string]any{"command": []any{"ls"}}) || b["id"] != "call_1" {
		t.Errorf("tool_use = %v", b)
	}
	if b := block(6); !reflect.DeepEqual(b["input"], map[string]any{}) || b["raw_input"] != "not json" {
		t.Errorf("tool_use with bad arguments = %v", b)
	}
	if b := block(8); b["is_error"] != true || b["content"] != "bad args" {
		t.Errorf("failed output = %v", b)
	}
	var extra session.EnvelopeExtra
	json.Unmarshal(f.Records[7].Extra, &extra)
	if string(extra.ToolUseResults["call_1"]) != `{"durationMs":250,"exitCode":0,"stdout":"a.go\n"}` {
		t.Errorf("execution record = %s", extra.ToolUseResults["call_1"])
	}
	if string(extra.Context) != `{"cwd":"/repo/app","gitBranch":"main"}` {
		t.Errorf("context = %s", extra.Context)
	}
	if u := f.Records[9].Usage; u == nil || *u != (session.Usage{InputTokens: 40, OutputTokens: 7, CacheReadInputTokens: 60}) {
		t.Errorf("usage = %+v", u)
	}
	if f.Records[10].Usage != nil {
		t.Errorf("a repeated token report counted again")
	}
	if f.Records[11].Status != session.MessageInterrupted {
		t.Errorf("the answer of an aborted turn has status %q", f.Records[11].Status)
	}
	info := f.Target.Info
	if info.ID != "0199-test" || info.Title != "fix the build" || info.Model != "gpt-5-codex" || info.ProjectPath != "/repo" {
		t.Errorf("target = %+v", info)
	}
	for i, r := range f.Records[1:] {
		if r.ParentUUID != f.Records[i].UUID {
			t.Errorf("record %d parent = %s, want the record before it", i+1, r.ParentUUID)
		}
	}
}
