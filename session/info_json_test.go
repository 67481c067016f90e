package session

import (
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"
)

// TestAppendJSONStringASCII: every string comes back the same through a JSON decoder, and
// the text is pure ASCII, whatever mix of plain runs, escapes and non-ASCII it holds.
func TestAppendJSONStringASCII(t *testing.T) {
	cases := []string{"", "plain ASCII text of some length", `"quoted" and \\back\\slashed`, "tab\tnew\nline\x00nul\x1f",
		"arrows → and ✓ and 😀 emoji", strings.Repeat("abcdefg\"", 9), "bad \xff utf-8", "12345678\x7f" + strings.Repeat("é", 9)}
	for _, s := range cases {
		out := AppendJSONStringASCII(nil, s)
		if !IsASCII(out) {
			t.Errorf("%q: not ASCII: %s", s, out)
		}
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Errorf("%q: %s does not decode: %v", s, out, err)
			continue
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if back != want {
			t.Errorf("%q came back as %q", want, back)
		}
	}
}

// TestAppendInfoFields: a listing of some fields holds exactly those; all fields decode to
// the same SessionInfo; times are written as FormatTime writes them.
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
	if len(some) != 3 || some["title"] != info.Title || some["updatedAt"] != FormatTime(info.UpdatedAt) || some["messageCount"] != float64(12) {
		t.Errorf("listing of three fields: %v", some)
	}
	var all map[string]any
	if err := json.Unmarshal(AppendInfo(nil, &info, AllInfoFields), &all); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"createdAt": FormatTime(info.CreatedAt), "lastAccessedAt": FormatTime(info.LastAccessedAt),
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

// TestAppendTimeMatchesFormatTime over dates of several centuries, leap days, times before
// 1970 and the zero time; and over every day of four years.
func TestAppendTimeMatchesFormatTime(t *testing.T) {
	for _, tm := range []time.Time{{}, time.UnixMilli(0), time.UnixMilli(1700000000999), time.Date(2099, 12, 31, 23, 59, 59, 7e6, time.UTC),
		time.Date(1969, 7, 20, 20, 17, 40, 0, time.FixedZone("x", 3600)), time.Date(2000, 2, 29, 12, 0, 0, 0, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 1e6, time.UTC), time.UnixMilli(-1)} {
		if got := string(AppendTime(nil, tm)); got != FormatTime(tm) {
			t.Errorf("%v: %s, FormatTime %s", tm, got, FormatTime(tm))
		}
	}
	for d := time.Date(1999, 1, 1, 23, 59, 59, 999e6, time.UTC); d.Year() < 2003; d = d.AddDate(0, 0, 1) {
		if got := string(AppendTime(nil, d)); got != FormatTime(d) {
			t.Fatalf("%s, FormatTime %s", got, FormatTime(d))
		}
	}
}
