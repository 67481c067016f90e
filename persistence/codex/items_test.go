package codex

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// patch is an apply_patch call's freeform input, with what JSON encoders like to escape.
const patch = "*** Begin Patch\n*** Update File: a.go\n@@\n-\tx := \"<old>\"\n+\tx := \"<new> é\\u2028\"\n*** End Patch\n"

// itemsRollout has every kind of response item Codex writes besides messages and
// function calls, as codex-rs's protocol types serialise them.
var itemsRollout = strings.Join([]string{
	`{"timestamp":"2025-10-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0199-items","cwd":"/repo"}}`,
	`{"timestamp":"2025-10-01T10:00:00.500Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions>"}]}}`,
	`{"timestamp":"2025-10-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"rename x"}]}}`,
	`{"timestamp":"2025-10-01T10:00:02.000Z","type":"response_item","payload":{"type":"custom_tool_call","status":"completed","call_id":"call_p","name":"apply_patch","input":` + mustString(patch) + `}}`,
	`{"timestamp":"2025-10-01T10:00:03.000Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_p","output":"{\"output\":\"Success. Updated the following files:\\nM a.go\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.1}}"}}`,
	`{"timestamp":"2025-10-01T10:00:04.000Z","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"go rename"}}}`,
	`{"timestamp":"2025-10-01T10:00:05.000Z","type":"response_item","payload":{"type":"local_shell_call","call_id":"call_s","status":"completed","action":{"type":"exec","command":["go","build"]}}}`,
	`{"timestamp":"2025-10-01T10:00:06.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_s","output":[{"type":"input_text","text":"ok"},{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]}}`,
	`{"timestamp":"2025-10-01T10:00:07.000Z","type":"response_item","payload":{"type":"ghost_snapshot","ghost_commit":{"id":"abc"}}}`,
	`{"timestamp":"2025-10-01T10:00:08.000Z","type":"response_item","payload":{"type":"compaction","encrypted_content":"gAAA"}}`,
	`{"timestamp":"2025-10-01T10:00:09.000Z","type":"response_item","payload":{"type":"image_generation_call","id":"ig_1","result":"AAAA"}}`,
	`{"timestamp":"2025-10-01T10:00:10.000Z","type":"response_item","payload":{"type":"custom_tool_call","call_id":"call_bad","name":"apply_patch","input":{"not":"text"}}}`,
}, "\n") + "\n"

func mustString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestEveryItemTheModelSentOrReceivedIsAMessage(t *testing.T) {
	f, err := Read(strings.NewReader(itemsRollout), "rollout-items.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 12 || !strings.Contains(f.Skipped[0].Reason, "input") {
		t.Errorf("skipped = %+v, want line 12 (an input that is not text)", f.Skipped)
	}
	var got []string
	blocks := map[int]map[string]any{}
	for i, r := range f.Records {
		desc := r.Type + "/" + r.Role
		if r.Continues {
			desc += "+"
		}
		got = append(got, desc)
		if len(r.Blocks) > 0 {
			var b map[string]any
			json.Unmarshal(r.Blocks[0].JSON, &b)
			blocks[i] = b
		}
	}
	want := []string{"session_meta/", "response_item/", "user/user", "assistant/assistant", "tool_result/user",
		"assistant/assistant", "assistant/assistant+", "tool_result/user", "response_item/", "assistant/assistant", "assistant/assistant+"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records = %v\nwant %v", got, want)
	}
	if b := blocks[3]; b["type"] != "tool_use" || b["id"] != "call_p" || b["name"] != "apply_patch" || b["freeform"] != true ||
		!reflect.DeepEqual(b["input"], map[string]any{"input": patch}) {
		t.Errorf("apply_patch call = %v", b)
	}
	if b := blocks[4]; b["type"] != "tool_result" || b["tool_use_id"] != "call_p" || !strings.Contains(b["content"].(string), "M a.go") {
		t.Errorf("apply_patch output = %v", b)
	}
	if b := blocks[5]; b["type"] != "web_search_call" || b["action"].(map[string]any)["query"] != "go rename" {
		t.Errorf("web search = %v", b)
	}
	if b := blocks[6]; b["type"] != "tool_use" || b["name"] != "local_shell" || b["id"] != "call_s" {
		t.Errorf("local shell call = %v", b)
	}
	if b := blocks[7]; b["type"] != "tool_result" || len(b["content"].([]any)) != 2 {
		t.Errorf("output of content items = %v", b)
	}
	if b := blocks[9]; b["type"] != "compaction" || b["encrypted_content"] != "gAAA" {
		t.Errorf("compaction = %v", b)
	}
	if b := blocks[10]; b["type"] != "image_generation_call" || b["result"] != "AAAA" {
		t.Errorf("an item of a kind not known = %v", b)
	}
}
