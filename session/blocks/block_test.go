package blocks_test

import (
	"testing"

	"github.com/sessionkeep/sessionkeep/session/blocks"
)

func TestCheckBlock(t *testing.T) {
	valid := []struct {
		json, typ, toolUseID string
	}{
		{`{"type":"text","text":""}`, "text", ""},
		{`{"type":"tool_use","id":"t1","name":"ls","input":{}}`, "tool_use", "t1"},
		{`{"type":"tool_result","tool_use_id":"t2"}`, "tool_result", "t2"},
		{`{"type":"tool_result","tool_use_id":"t2","content":"x","is_error":true}`, "tool_result", "t2"},
		{`{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"x"}],"is_error":null}`, "tool_result", "t2"},
		{`{"type":"thinking","thinking":"hm"}`, "thinking", ""},
		{`{"type":"thinking","thinking":"hm","signature":"s"}`, "thinking", ""},
		{`{"type":"redacted_thinking","data":"d"}`, "redacted_thinking", ""},
		{`{"type":"image","source":{"type":"url","url":"u"}}`, "image", ""},
		{`{"type":"document","source":{"type":"mystery","x":1}}`, "document", ""},
		{`{"type":"whatever_comes_next","anything":[1,{}]}`, "whatever_comes_next", ""},
	}
	for _, c := range valid {
		info, err := blocks.CheckBlock([]byte(c.json))
		if err != nil {
			t.Errorf("CheckBlock(%s): %v", c.json, err)
			continue
		}
		if info.Type != c.typ || info.ToolUseID != c.toolUseID {
			t.Errorf("CheckBlock(%s) = %+v, want type %q id %q", c.json, info, c.typ, c.toolUseID)
		}
	}
	invalid := []string{
		``, `null`, `[]`, `"text"`, `{}`, `{"type":1}`, `{"type":"text"}`, `{"type":"text","text":null}`,
		`{"type":"tool_use","name":"ls","input":{}}`,
		`{"type":"tool_use","id":"t","input":{}}`,
		`{"type":"tool_use","id":"t","name":"ls"}`,
		`{"type":"tool_result"}`,
		`{"type":"tool_result","tool_use_id":"t","content":5}`,
		`{"type":"tool_result","tool_use_id":"t","content":{"type":"text"}}`,
		`{"type":"tool_result","tool_use_id":"t","is_error":"true"}`,
		`{"type":"thinking","signature":"s"}`,
		`{"type":"thinking","thinking":"x","signature":5}`,
		`{"type":"redacted_thinking"}`,
		`{"type":"image"}`,
		`{"type":"image","source":"https://x"}`,
		`{"type":"document","source":{"data":"x"}}`,
	}
	for _, j := range invalid {
		if info, err := blocks.CheckBlock([]byte(j)); err == nil {
			t.Errorf("CheckBlock(%s) = %+v, want an error", j, info)
		}
	}
}
