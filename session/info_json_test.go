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

// The values of a listing are the object's values in the order of the names, null for
// each field the object leaves out, for every single field and for all of them.
func TestAppendInfoValuesAreTheObjectsValuesInNameOrder(t *testing.T) {
	cp := int64(7)
	sessions := []SessionInfo{
		{ID: "s1", ProjectPath: "/p", Title: "tïtle \"q\"\n", Provider: "anthropic", Model: "m", ContextWindow: 1000,
			CreatedAt: time.UnixMilli(1700000000123).UTC(), UpdatedAt: time.UnixMilli(1700000100456).UTC(),
			LastMessageAt: time.UnixMilli(1700000100400).UTC(), LastAccessedAt: time.UnixMilli(1700000200789).UTC(),
			ArchivedAt: time.UnixMilli(1700000300000).UTC(), MessageCount: 12, ToolCount: 3, Status: StatusArchived,
			Corruption: "bad", Key: "k", Checkpoint: &cp, SDKSession: "sdk", ForkedFrom: &ForkOrigin{SessionID: "s0", UUID: "u"}, Redactions: 2},
		{ID: "s2", Status: StatusActive}, // every optional field absent
	}
	sets := []InfoFields{AllInfoFields}
	for bit := range infoFieldCount {
		sets = append(sets, 1<<bit)
	}
	for _, info := range sessions {
		for _, f := range sets {
			var object map[string]json.RawMessage
			if err := json.Unmarshal(AppendInfo(nil, &info, f), &object); err != nil {
				t.Fatal(err)
			}
			var values []json.RawMessage
			got := AppendInfoValues(nil, &info, f)
			if err := json.Unmarshal(append(append([]byte{'['}, got...), ']'), &values); err != nil {
				t.Fatalf("%s %b: %s: %v", info.ID, f, got, err)
			}
			names := f.Names()
			if len(values) != len(names) {
				t.Fatalf("%s %b: %d values for %d names: %s", info.ID, f, len(values), len(names), got)
			}
			for i, name := range names {
				v, ok := object[name]
				if !ok {
					v = json.RawMessage("null")
				}
				if string(values[i]) != string(v) {
					t.Errorf("%s %s: value %s, the object's %s", info.ID, name, values[i], v)
				}
			}
		}
	}
}
