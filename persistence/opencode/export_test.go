package opencode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session"
)

// export is a session as `opencode export` prints it (JSON indented by two spaces), in the
// shape of a real export of OpenCode 1.18.18 published inside a session transcript: the
// session's info with its totals, share, agent and model, then each message's info and
// parts, a webfetch call among them. The values are made up.
func export(t *testing.T) string {
	t.Helper()
	const ses = "ses_fe176fc8fffeTDXeqguW2DZubY"
	doc := map[string]any{
		"info": map[string]any{"id": ses, "slug": "hidden-sailor", "projectID": "global", "directory": "/root/.tmp", "path": "",
			"summary": map[string]any{"additions": 0, "deletions": 0, "files": 0}, "cost": 0,
			"tokens": map[string]any{"input": 8383, "output": 72, "reasoning": 55, "cache": map[string]any{"read": 0, "write": 0}},
			"share":  map[string]any{"url": "https://opncd.ai/share/uW2DZubY"}, "title": "Where the servers come from", "agent": "build",
			"model":   map[string]any{"id": "deepseek-v4-flash-free", "providerID": "opencode", "variant": "default"},
			"version": "1.18.18", "time": map[string]any{"created": 1787218690928, "updated": 1787220609746}},
		"messages": []any{
			map[string]any{"info": map[string]any{"id": "msg_01e890744001RCmmBUqvjY40jM", "sessionID": ses, "role": "user",
				"time": map[string]any{"created": 1787218690969}, "summary": map[string]any{"diffs": []any{}}, "agent": "build",
				"model": map[string]any{"providerID": "opencode", "modelID": "deepseek-v4-flash-free"}},
				"parts": []any{map[string]any{"id": "prt_01e8907440022iI8QTzwtnjFCt", "sessionID": ses, "messageID": "msg_01e890744001RCmmBUqvjY40jM",
					"type": "text", "text": "where does the app get its servers?"}}},
			map[string]any{"info": map[string]any{"id": "msg_01e8903a0001sPJNEPTZEQk35d", "sessionID": ses, "role": "assistant",
				"time": map[string]any{"created": 1787218690976, "completed": 1787218693671}, "parentID": "msg_01e890744001RCmmBUqvjY40jM",
				"modelID": "deepseek-v4-flash-free", "providerID": "opencode", "mode": "build", "agent": "build",
				"path": map[string]any{"cwd": "/root/.tmp", "root": "/root/.tmp"}, "cost": 0,
				"tokens": map[string]any{"total": 8510, "input": 8383, "output": 72, "reasoning": 55, "cache": map[string]any{"read": 0, "write": 0}},
				"finish": "tool-calls"},
				"parts": []any{
					map[string]any{"id": "prt_01e89075f001U372QareK2rQz5", "type": "step-start", "snapshot": "4b825dc6"},
					map[string]any{"id": "prt_01e8908c8001nz7hOCxwDv73Lk", "type": "reasoning", "text": "Fetch the repository first.",
						"time": map[string]any{"start": 1787218692296, "end": 1787218692667}},
					map[string]any{"id": "prt_01e890a3c001713cMVIh5jsG02", "type": "tool", "callID": "call_00_otBP", "tool": "webfetch",
						"state": map[string]any{"status": "completed", "input": map[string]any{"url": "https://github.com/x/y", "format": "markdown"},
							"output": "# y", "title": "https://github.com/x/y (text/html)", "metadata": map[string]any{},
							"time": map[string]any{"start": 1787218692700, "end": 1787218693500}}},
				}},
			map[string]any{"info": "not a message", "parts": []any{}},
		},
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAnExportBecomesItsSession(t *testing.T) {
	text := export(t)
	if !IsExport([]byte(text[:200])) || IsExport([]byte(`{"sessionId":"ses_1","projectHash":"h"}`)) || IsExport([]byte(`{"info":{"id":"msg_1"}}`)) {
		t.Fatal("IsExport tells exports wrong")
	}
	f, err := ReadExport(strings.NewReader(text), "/x/export.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 3 {
		t.Errorf("skipped = %+v", f.Skipped)
	}
	var kinds []string
	for _, r := range f.Records {
		kinds = append(kinds, r.Type+":"+strings.Join(importcheck.BlockTypes(r.Blocks), ","))
	}
	if strings.Join(kinds, " ") != "user:text assistant:thinking,tool_use tool_result:tool_result" {
		t.Errorf("records = %v", kinds)
	}
	if u := f.Records[1].Usage; u == nil || *u != (session.Usage{InputTokens: 8383, OutputTokens: 127}) {
		t.Errorf("usage = %+v", u)
	}
	info := f.Target.Info
	if info.ID != "ses_fe176fc8fffeTDXeqguW2DZubY" || info.Title != "Where the servers come from" || info.ProjectPath != "/root/.tmp" ||
		info.Model != "deepseek-v4-flash-free" || info.Provider != "opencode" {
		t.Errorf("target = %+v", info)
	}
	if _, err := ReadExport(strings.NewReader(`{"info":{}}`), "/x/e.json"); err == nil || !strings.Contains(err.Error(), "not an OpenCode export") {
		t.Errorf("an export without a session: %v", err)
	}
}
