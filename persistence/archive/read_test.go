package archive

import (
	"strings"
	"testing"
)

func TestAnArchiveIsKnownByItsHeader(t *testing.T) {
	for text, want := range map[string]string{
		`{"type":"user"}`: "not a sessionkeep archive: the first line is not its header",
		`{"format":"sessionkeep","version":2,"session":{"id":"x"}}`: "sessionkeep archive version 2: this sessionkeep reads version 1",
		`{"format":"sessionkeep","version":1,"session":{}}`:         "sessionkeep archive: the header has no session id",
		"\n\n": "not a sessionkeep archive: no header line",
	} {
		_, err := ReadJSONL(strings.NewReader(text), "a.jsonl", nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %q", text, err, want)
		}
	}
}

func TestEnvelopesReadBackIntoRecords(t *testing.T) {
	text := `{"format":"sessionkeep","version":1,"session":{"id":"s1","projectPath":"/p","title":"T","createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:09.000Z","messageCount":3,"status":"active","tokenTracker":{"inputTokens":5,"outputTokens":1,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"contextTokens":5}}}
{"uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2025-01-01T00:00:01.000Z","type":"user","status":"complete","turn":0,"isSidechain":false,"context":{"cwd":"/p"},"message":{"role":"user","content":[{"type":"text","text":"hi"}]}}
{"uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T00:00:02.000Z","type":"assistant","status":"streaming","turn":0,"isSidechain":true,"agentId":"x","parentToolUseId":"t0","message":{"role":"assistant","content":[{"type":"text"}]}}
{"uuid":"a2","parentUuid":"u1","sessionId":"s1","timestamp":"2025-01-01T00:00:03.000Z","type":"assistant","status":"streaming","turn":0,"isSidechain":true,"agentId":"x","parentToolUseId":"t0","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":5,"output_tokens":1}}}
`
	f, err := ReadJSONL(strings.NewReader(text), "a.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 3 || !strings.Contains(f.Skipped[0].Reason, `text block: field "text" must be a string`) {
		t.Errorf("skipped = %+v", f.Skipped)
	}
	if info := f.Target.Info; info.ID != "s1" || info.Title != "T" || info.MessageCount != 0 || f.Target.Tracker.InputTokens != 5 {
		t.Errorf("target = %+v tracker %+v", info, f.Target.Tracker)
	}
	a := f.Records[1]
	if a.Status != "interrupted" || !a.IsSidechain || a.ParentToolUseID != "t0" || a.Usage == nil || a.Usage.InputTokens != 5 {
		t.Errorf("record = %+v", a)
	}
	if string(a.Extra) != `{"agentId":"x","parentToolUseId":"t0"}` || string(f.Records[0].Extra) != `{"context":{"cwd":"/p"}}` {
		t.Errorf("extras = %s / %s", a.Extra, f.Records[0].Extra)
	}
}
