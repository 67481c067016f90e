package session

import (
	"testing"
	"time"

	"github.com/goccy/go-json"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
)

func TestAppendInfoFields(t *testing.T) {
	cp := int64(7)
	info := SessionInfo{ID: "s1", ProjectPath: "/p", Title: "tïtle \"q\"", Provider: "anthropic", CreatedAt: time.UnixMilli(1700000000123).UTC(),
		UpdatedAt: time.UnixMilli(1700000100456).UTC(), LastAccessedAt: time.UnixMilli(1700000200789).UTC(), MessageCount: 12, ToolCount: 3,
		Tokens: TokenTracker{InputTokens: 1, OutputTokens: 2, CacheReadInputTokens: 3, CacheCreationInputTokens: 4, ContextTokens: 5},
		Status: StatusActive, Checkpoint: &cp, ForkedFrom: &ForkOrigin{SessionID: "s0", UUID: "u"}}
	want, err := ParseInfoFields([]string{"title", "updatedAt", "messageCount"})
	if err != nil {
		t.Fatal(err)
	}
	var some map[string]any
	if err := json.Unmarshal(AppendInfo(nil, &info, want), &some); err != nil {
		t.Fatal(err)
	}
	if len(some) != 3 || some["title"] != info.Title || some["updatedAt"] != jsonenc.FormatTime(info.UpdatedAt) || some["messageCount"] != float64(12) {
		t.Errorf("listing of three fields: %v", some)
	}
	var all map[string]any
	if err := json.Unmarshal(AppendInfo(nil, &info, AllInfoFields), &all); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"createdAt": jsonenc.FormatTime(info.CreatedAt), "lastAccessedAt": jsonenc.FormatTime(info.LastAccessedAt),
		"checkpoint": float64(7), "provider": "anthropic", "status": "active"} {
		if all[name] != v {
			t.Errorf("%s = %v, want %v", name, all[name], v)
		}
	}
	for _, omitted := range []string{"model", "lastMessageAt", "archivedAt", "corruption", "key", "sdkSessionId", "contextWindow"} {
		if _, ok := all[omitted]; ok {
			t.Errorf("%s is written though empty", omitted)
		}
	}
	if tokens, _ := all["tokens"].(map[string]any); tokens["cacheCreationInputTokens"] != float64(4) || len(tokens) != 5 {
		t.Errorf("tokens: %v", all["tokens"])
	}
	if f, _ := all["forkedFrom"].(map[string]any); f["sessionId"] != "s0" || f["uuid"] != "u" {
		t.Errorf("forkedFrom: %v", all["forkedFrom"])
	}
	if _, err := ParseInfoFields([]string{"title", "nope"}); err == nil {
		t.Error("an unknown field is accepted")
	}
}
