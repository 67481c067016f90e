package interop

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestTheOtherAgentsFilesAreFoundAndToldApart(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"gemini/tmp/app/chats/session-a.jsonl":      `{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z"}` + "\n",
		"gemini/tmp/app/chats/session-b.json":       "{\n  \"sessionId\": \"s2\",\n  \"projectHash\": \"h\",\n  \"messages\": []\n}\n",
		"gemini/tmp/app/logs.json":                  `[{"sessionId":"s","messageId":0,"type":"user","message":"hi"}]`,
		"gemini/tmp/app/checkpoint-v1.json":         `[{"role":"user","parts":[{"text":"hi"}]}]`,
		"proj/.aider.chat.history.md":               "\n# aider chat started at 2025-01-01 10:00:00\n\n#### hi  \n",
		"opencode/opencode.db":                      "SQLite format 3\x00rest of the header",
		"opencode/storage/session/prj/ses_1.json":   `{"id":"ses_1"}`,
		"opencode/storage/message/ses_1/msg_1.json": `{"id":"msg_1","role":"user"}`,
		"opencode/storage/part/msg_1/prt_1.json":    `{"id":"prt_1","type":"text","text":"hi"}`,
		"claude/s.jsonl":                            `{"type":"user","uuid":"u"}` + "\n",
		"notes.md":                                  "# notes\n",
		"web/logs.json":                             `[{"level":"info"}]`,
		"tmp/build/logs.json":                       `[{"level":"info"}]`,
		".gemini/tmp/0a1b2c/logs.json":              `[{"sessionId":"s0","messageId":0,"type":"user","message":"hi"}]`,
	}
	for p, content := range files {
		touch(t, filepath.Join(dir, p), content)
	}
	found, err := findFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range found {
		rel, _ := filepath.Rel(dir, f.path)
		got[filepath.ToSlash(rel)] = detect(f.path)
	}
	want := map[string]string{
		"gemini/tmp/app/chats/session-a.jsonl":    FormatGemini,
		"gemini/tmp/app/chats/session-b.json":     FormatGemini,
		"gemini/tmp/app/checkpoint-v1.json":       FormatGemini,
		"gemini/tmp/app/logs.json":                FormatGemini,
		".gemini/tmp/0a1b2c/logs.json":            FormatGemini,
		"proj/.aider.chat.history.md":             FormatAider,
		"opencode/opencode.db":                    FormatOpenCode,
		"opencode/storage/session/prj/ses_1.json": FormatOpenCode,
		"claude/s.jsonl":                          FormatClaudeCode,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("found and told:\n%v\nwant\n%v", got, want)
	}
}

func TestAnOpenCodeExportIsToldByItsFirstMember(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"indented.json": "{\n  \"info\": {\n    \"id\": \"ses_fe176fc8fffeTDXeqguW2DZubY\",\n    \"slug\": \"hidden-sailor\"\n  },\n  \"messages\": []\n}\n",
		"compact.json":  `{"info":{"id":"ses_1","title":"t"},"messages":[]}`,
	} {
		path := filepath.Join(dir, name)
		touch(t, path, content)
		if got := detect(path); got != FormatOpenCode {
			t.Errorf("%s is told as %q", name, got)
		}
	}
	other := filepath.Join(dir, "other.json")
	touch(t, other, "{\n  \"info\": {\"id\": \"msg_1\"}\n}\n")
	if got := detect(other); got == FormatOpenCode {
		t.Errorf("a document whose info is no session is told as OpenCode's")
	}
}
