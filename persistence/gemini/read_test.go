package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session"
)

// chatJSONL is a chat file as Gemini CLI's ChatRecordingService writes it: the gemini
// message is written again when its tool call's result and its tokens arrive, a message
// is rewound away, and the summary comes in a $set.
const chatJSONL = `{"sessionId":"5e1d-test","projectHash":"abc","startTime":"2026-01-02T10:00:00.000Z","lastUpdated":"2026-01-02T10:00:00.000Z","kind":"main","directories":["/home/u/proj"]}
{"id":"u1","timestamp":"2026-01-02T10:00:01.000Z","type":"user","content":[{"text":"list the files"}]}
{"id":"g1","timestamp":"2026-01-02T10:00:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"call-1","name":"run_shell_command","args":{"command":"ls"},"status":"executing","timestamp":"2026-01-02T10:00:02.500Z"}],"thoughts":[{"subject":"Listing","description":"I will run ls.","timestamp":"2026-01-02T10:00:02.100Z"}],"model":"gemini-2.5-pro"}
{"$set":{"lastUpdated":"2026-01-02T10:00:02.000Z"}}
{"id":"g1","timestamp":"2026-01-02T10:00:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"call-1","name":"run_shell_command","args":{"command":"ls"},"result":[{"functionResponse":{"id":"call-1","name":"run_shell_command","response":{"output":"a.go\nb.go"}}}],"status":"success","timestamp":"2026-01-02T10:00:03.000Z","displayName":"Shell","resultDisplay":"a.go\nb.go","renderOutputAsMarkdown":true}],"thoughts":[{"subject":"Listing","description":"I will run ls.","timestamp":"2026-01-02T10:00:02.100Z"}],"tokens":{"input":1000,"output":20,"cached":600,"thoughts":30,"tool":5,"total":1055},"model":"gemini-2.5-pro"}
{"id":"g2","timestamp":"2026-01-02T10:00:04.000Z","type":"gemini","content":[{"text":"Two files."}],"model":"gemini-2.5-flash"}
{"id":"u2","timestamp":"2026-01-02T10:00:05.000Z","type":"user","content":"never mind"}
{"$rewindTo":"u2"}
{"id":"i1","timestamp":"2026-01-02T10:00:06.000Z","type":"info","content":"Switched model"}
{"id":"u3","timestamp":"2026-01-02T10:00:07.000Z","type":"user","content":[{"text":"what is this?"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0K"}},{"fileData":{"mimeType":"application/pdf","fileUri":"gs://b/doc.pdf"}},{"executableCode":{"code":"1"}}]}
{"$set":{"summary":"Listing files"}}
not json
`

func TestAChatFileBecomesAConversation(t *testing.T) {
	f, err := Read(strings.NewReader(chatJSONL), "/x/chats/session-2026-01-02T10-00-5e1d.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 12 {
		t.Errorf("skipped = %+v, want line 12", f.Skipped)
	}
	var got []string
	for _, r := range f.Records {
		got = append(got, r.Type+"/"+r.Role)
	}
	want := []string{"user/user", "assistant/assistant", "tool_result/user", "assistant/assistant", "info/", "user/user"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records = %v\nwant %v", got, want)
	}
	types := func(i int) []string { return importcheck.BlockTypes(f.Records[i].Blocks) }
	if got := types(1); !reflect.DeepEqual(got, []string{"thinking", "tool_use"}) {
		t.Errorf("assistant blocks = %v", got)
	}
	if got := string(f.Records[1].Blocks[1].JSON); !strings.Contains(got, `"input":{"command":"ls"}`) || f.Records[1].Blocks[1].ToolUseID != "call-1" {
		t.Errorf("tool_use = %s", got)
	}
	if got := string(f.Records[2].Blocks[0].JSON); got != `{"content":"a.go\nb.go","tool_use_id":"call-1","type":"tool_result"}` {
		t.Errorf("tool_result = %s", got)
	}
	var extra session.EnvelopeExtra
	json.Unmarshal(f.Records[2].Extra, &extra)
	if exec := string(extra.ToolUseResults["call-1"]); !strings.Contains(exec, `"status":"success"`) || !strings.Contains(exec, `"renderOutputAsMarkdown":true`) {
		t.Errorf("execution record = %s", extra.ToolUseResults["call-1"])
	}
	if string(extra.Context) != `{"cwd":"/home/u/proj"}` {
		t.Errorf("context = %s", extra.Context)
	}
	if u := f.Records[1].Usage; u == nil || *u != (session.Usage{InputTokens: 405, OutputTokens: 50, CacheReadInputTokens: 600}) {
		t.Errorf("usage = %+v", u)
	}
	if got := types(5); !reflect.DeepEqual(got, []string{"text", "image", "document", "gemini_part"}) {
		t.Errorf("user blocks = %v", got)
	}
	info := f.Target.Info
	if info.ID != "5e1d-test" || info.Title != "Listing files" || info.Model != "gemini-2.5-flash" || info.ProjectPath != "/home/u/proj" || info.Provider != "google" {
		t.Errorf("target = %+v", info)
	}
	for i, r := range f.Records[1:] {
		if r.ParentUUID != f.Records[i].UUID {
			t.Errorf("record %d parent = %s, want the record before it", i+1, r.ParentUUID)
		}
	}
	again, _ := Read(strings.NewReader(chatJSONL), "other-name.jsonl", nil)
	if again.Records[0].UUID != f.Records[0].UUID {
		t.Errorf("ids differ between two reads of one file")
	}
}

// legacyJSON is the single document older Gemini CLI versions wrote (session-*.json).
const legacyJSON = `{
  "sessionId": "old-1",
  "projectHash": "abc",
  "startTime": "2025-08-01T09:00:00.000Z",
  "lastUpdated": "2025-08-01T09:05:00.000Z",
  "messages": [
    {"id": "a", "timestamp": "2025-08-01T09:00:01.000Z", "type": "user", "content": "hello"},
    {"id": "b", "timestamp": "2025-08-01T09:00:02.000Z", "type": "gemini", "content": "Hi!", "thoughts": [], "tokens": {"input": 10, "output": 2, "cached": 0, "total": 12}, "model": "gemini-2.5-pro"},
    {"id": "c", "timestamp": "2025-08-01T09:00:03.000Z", "type": "error", "content": "quota exceeded"}
  ]
}
`

func TestAnOlderChatDocumentIsRead(t *testing.T) {
	f, err := Read(strings.NewReader(legacyJSON), "session-2025-08-01T09-00-old1.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 3 || f.Records[1].Role != "assistant" || f.Records[2].Type != "error" || len(f.Skipped) != 0 {
		t.Fatalf("records = %+v skipped %+v", f.Records, f.Skipped)
	}
	if f.Target.Info.ID != "old-1" || f.Target.Info.Title != "hello" || f.Target.Info.UpdatedAt.Format("15:04") != "09:05" {
		t.Errorf("target = %+v", f.Target.Info)
	}
}

func TestTheProjectIsReadFromTheRegistrysMarker(t *testing.T) {
	project := filepath.Join(t.TempDir(), ".gemini", "tmp", "my-app")
	chats := filepath.Join(project, "chats")
	os.MkdirAll(filepath.Join(chats, "parent-id"), 0o755)
	os.WriteFile(filepath.Join(project, ".project_root"), []byte("/home/u/my-app"), 0o600)
	for _, path := range []string{filepath.Join(chats, "session-x.jsonl"), filepath.Join(chats, "parent-id", "sub.jsonl")} {
		f, err := Read(strings.NewReader(legacyJSON), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.Target.Info.ProjectPath != "/home/u/my-app" {
			t.Errorf("%s: project = %q", path, f.Target.Info.ProjectPath)
		}
	}
}

// checkpointJSON is what /chat save writes: the Contents of the history.
const checkpointJSON = `[
  {"role": "user", "parts": [{"text": "This is the Gemini CLI. Context follows."}]},
  {"role": "model", "parts": [{"text": "Got it."}]},
  {"role": "user", "parts": [{"text": "run the tests"}]},
  {"role": "model", "parts": [{"text": "Running them.", "thought": true}, {"functionCall": {"id": "c1", "name": "run_shell_command", "args": {"command": "go test"}}}]},
  {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"error": "exit 1"}}}]}
]`

func TestACheckpointIsReadAsItsHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkpoint-before-refactor.json")
	os.WriteFile(path, []byte(checkpointJSON), 0o600)
	f, err := Read(strings.NewReader(checkpointJSON), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Records {
		got = append(got, r.Type+":"+strings.Join(importcheck.BlockTypes(r.Blocks), ","))
	}
	want := []string{"user:text", "assistant:text", "user:text", "assistant:thinking,tool_use", "tool_result:tool_result"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records = %v\nwant %v", got, want)
	}
	if b := string(f.Records[4].Blocks[0].JSON); b != `{"content":"exit 1","is_error":true,"tool_use_id":"c1","type":"tool_result"}` {
		t.Errorf("result = %s", b)
	}
	if f.Target.Info.Title != "checkpoint before-refactor: This is the Gemini CLI. Context follows." || f.Target.Info.ID == "" {
		t.Errorf("target = %+v", f.Target.Info)
	}
	if _, err := Read(strings.NewReader("[1, 2"), path, nil); err == nil {
		t.Errorf("a damaged checkpoint read without an error")
	}
}
