package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session"
)

// writeJSON writes value as OpenCode's storage writes its files: indented by two spaces.
func writeJSON(t *testing.T, path string, value any) {
	t.Helper()
	data, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAnOpenAISessionOfTheRealShapeKeepsWhatItHolds writes a session's storage files in
// the shape of the real ones of xor-hardener/draft-birkholz-verifiable-agent-conversations
// examples/sessions/opencode-gpt-5-2.jsonl (see test/real-files.json): OpenCode's storage
// objects of a gpt-5.2 session, each part naming its session and message, a step-start
// with its snapshot, a reasoning part whose metadata holds OpenAI's item id and encrypted
// reasoning, a grep tool call with its metadata, a step-finish with its reason, snapshot,
// cost and tokens (no total), and the project and share files beside them. The values
// are made up; the shape is the real one.
func TestAnOpenAISessionOfTheRealShapeKeepsWhatItHolds(t *testing.T) {
	root := filepath.Join(t.TempDir(), "opencode", "storage")
	const ses, user, asst = "ses_3b791921cffez40vusMKrFSsIn", "msg_c486e704f001lTrkhMbksE1B8v", "msg_c486e707f001iAWaZ7DPDe3gZS"
	writeJSON(t, filepath.Join(root, "project", "80a158.json"), map[string]any{"id": "80a158", "worktree": "/w/harfbuzz", "vcs": "git",
		"sandboxes": []string{"/tmp/Gi5jyFIv"}, "time": map[string]any{"created": 1770741721594, "updated": 1770741721594}})
	writeJSON(t, filepath.Join(root, "share", ses+".json"), map[string]any{"id": "MKrFSsIn", "secret": "<REDACTED>", "url": "https://opncd.ai/share/MKrFSsIn"})
	writeJSON(t, filepath.Join(root, "session", "80a158", ses+".json"), map[string]any{"id": ses, "projectID": "80a158", "directory": "/tmp/Gi5jyFIv",
		"title": "Fix the uninitialised read", "version": "1.1.53", "time": map[string]any{"created": 1770741722000, "updated": 1770741734000}})
	writeJSON(t, filepath.Join(root, "message", ses, user+".json"), map[string]any{"id": user, "sessionID": ses, "role": "user",
		"time": map[string]any{"created": 1770741722100}, "summary": map[string]any{"diffs": []any{}}, "agent": "build",
		"model": map[string]any{"providerID": "openai", "modelID": "gpt-5.2"}})
	part := func(msg, id string, fields map[string]any) {
		fields["id"], fields["sessionID"], fields["messageID"] = id, ses, msg
		writeJSON(t, filepath.Join(root, "part", msg, id+".json"), fields)
	}
	tokens := map[string]any{"input": 10838, "output": 523, "reasoning": 486, "cache": map[string]any{"read": 0, "write": 0}}
	part(user, "prt_c486e7051001B2gZDcyCd8pPEc", map[string]any{"type": "text", "text": "fix the crash in LookupFormat8"})
	part(asst, "prt_c486e734d001rqGKjX6MQBTc8Y", map[string]any{"type": "step-start", "snapshot": "cfa82eb1"})
	part(asst, "prt_c486e7353001nqdaKDUhp42MBX", map[string]any{"type": "reasoning", "text": "**Using Grep tool**\n\nSearch first.",
		"metadata": map[string]any{"openai": map[string]any{"itemId": "rs_0e70", "reasoningEncryptedContent": "gAAAAABpi1_l"}},
		"time":     map[string]any{"start": 1770741723987, "end": 1770741733519}})
	part(asst, "prt_c486e9890001V5DX3RpAHd5a48", map[string]any{"type": "tool", "callID": "call_VNpOESnCQosX0O477xzYfAKT", "tool": "grep",
		"state": map[string]any{"status": "completed", "input": map[string]any{"pattern": "LookupFormat8", "path": "/tmp/Gi5jyFIv", "include": "*"},
			"output": "Found 2 matches", "title": "LookupFormat8", "metadata": map[string]any{"matches": 2, "truncated": false},
			"time": map[string]any{"start": 1770741733734, "end": 1770741733767}},
		"metadata": map[string]any{"openai": map[string]any{"itemId": "fc_0e70"}}})
	part(asst, "prt_c486e998b001Er39ikTFYRANsL", map[string]any{"type": "step-finish", "reason": "tool-calls", "snapshot": "cfa82eb1", "cost": 0.0330925, "tokens": tokens})
	writeJSON(t, filepath.Join(root, "message", ses, asst+".json"), map[string]any{"id": asst, "sessionID": ses, "role": "assistant",
		"time": map[string]any{"created": 1770741723263, "completed": 1770741733838}, "parentID": user, "modelID": "gpt-5.2", "providerID": "openai",
		"mode": "build", "agent": "build", "path": map[string]any{"cwd": "/tmp/Gi5jyFIv", "root": "/tmp/Gi5jyFIv"}, "cost": 0.0330925,
		"tokens": tokens, "finish": "tool-calls"})

	f, err := ReadSessionFile(filepath.Join(root, "session", "80a158", ses+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 0 || len(f.Records) != 3 {
		t.Fatalf("records %d, skipped %+v", len(f.Records), f.Skipped)
	}
	if got := importcheck.BlockTypes(f.Records[1].Blocks); strings.Join(got, ",") != "thinking,tool_use" {
		t.Errorf("answer blocks = %v", got)
	}
	if u := f.Records[1].Usage; u == nil || *u != (session.Usage{InputTokens: 10838, OutputTokens: 1009}) {
		t.Errorf("usage = %+v", u)
	}
	var extra struct {
		Source struct {
			PartMetadata map[string]json.RawMessage `json:"partMetadata"`
			Parts        []json.RawMessage          `json:"parts"`
		} `json:"source"`
	}
	json.Unmarshal(f.Records[1].Extra, &extra)
	if got := string(extra.Source.PartMetadata["prt_c486e7353001nqdaKDUhp42MBX"]); !strings.Contains(got, `"reasoningEncryptedContent":"gAAAAABpi1_l"`) {
		t.Errorf("the encrypted reasoning is not kept: %s", f.Records[1].Extra)
	}
	if got := string(extra.Source.PartMetadata["prt_c486e9890001V5DX3RpAHd5a48"]); got != `{"openai":{"itemId":"fc_0e70"}}` {
		t.Errorf("the call's item id = %s", got)
	}
	if len(extra.Source.Parts) != 2 {
		t.Errorf("step-start and step-finish kept: %d", len(extra.Source.Parts))
	}
	if info := f.Target.Info; info.Model != "gpt-5.2" || info.Provider != "openai" || info.ProjectPath != "/tmp/Gi5jyFIv" || info.Title != "Fix the uninitialised read" {
		t.Errorf("target = %+v", info)
	}
}
