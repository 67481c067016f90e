package opencode

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/persistence/transcript"
	"github.com/sessionkeep/sessionkeep/persistence/transcript/importcheck"
	"github.com/sessionkeep/sessionkeep/session"
)

// checkSession checks what both forms of the store give of the fixture's session.
func checkSession(t *testing.T, f *transcript.File) {
	t.Helper()
	var got []string
	for _, r := range f.Records {
		got = append(got, r.Type+"/"+r.Role)
	}
	want := []string{"user/user", "assistant/assistant", "tool_result/user", "assistant/assistant", "assistant/assistant"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records = %v\nwant %v", got, want)
	}
	types := func(i int) []string { return importcheck.BlockTypes(f.Records[i].Blocks) }
	if got := types(0); !reflect.DeepEqual(got, []string{"text", "image"}) {
		t.Errorf("user blocks = %v", got)
	}
	if got := types(1); !reflect.DeepEqual(got, []string{"thinking", "tool_use", "tool_use"}) {
		t.Errorf("first step = %v", got)
	}
	if got := string(f.Records[1].Blocks[0].JSON); got != `{"signature":"sig==","thinking":"Check the log.","type":"thinking"}` {
		t.Errorf("thinking = %s", got)
	}
	results := f.Records[2].Blocks
	if len(results) != 2 || string(results[0].JSON) != `{"content":"error: x","tool_use_id":"toolu_1","type":"tool_result"}` ||
		string(results[1].JSON) != `{"content":"file not found","is_error":true,"tool_use_id":"toolu_2","type":"tool_result"}` {
		t.Errorf("results = %s", results)
	}
	var extra session.EnvelopeExtra
	json.Unmarshal(f.Records[2].Extra, &extra)
	if string(extra.ToolUseResults["toolu_1"]) != `{"metadata":{"exit":2},"status":"completed","title":"make"}` {
		t.Errorf("execution record = %s", extra.ToolUseResults["toolu_1"])
	}
	if u := f.Records[1].Usage; u == nil || *u != (session.Usage{InputTokens: 100, OutputTokens: 35, CacheReadInputTokens: 900, CacheCreationInputTokens: 50}) {
		t.Errorf("first step's usage = %+v", u)
	}
	if u := f.Records[3].Usage; u == nil || u.InputTokens != 200 {
		t.Errorf("second step's usage = %+v", u)
	}
	if !strings.Contains(string(f.Records[3].Extra), `"type":"patch"`) {
		t.Errorf("the patch part is not kept: %s", f.Records[3].Extra)
	}
	last := f.Records[4]
	if last.Status != session.MessageInterrupted || !strings.Contains(string(last.Extra), "MessageAbortedError: aborted") || last.Usage == nil {
		t.Errorf("the aborted answer = %+v %s", last, last.Extra)
	}
	if !f.Records[2].CreatedAt.Equal(millis(1767000002000)) || !f.Records[0].CreatedAt.Equal(millis(1767000000000)) {
		t.Errorf("times = %v, %v", f.Records[0].CreatedAt, f.Records[2].CreatedAt)
	}
	info := f.Target.Info
	if info.ID != "ses_1" || info.Title != "Build failure" || info.ProjectPath != "/w/api" || info.Model != "claude-sonnet-4-5" || info.Provider != "anthropic" {
		t.Errorf("target = %+v", info)
	}
	if !strings.Contains(string(f.Records[1].Extra), `"context":{"cwd":"/w/api"}`) {
		t.Errorf("context = %s", f.Records[1].Extra)
	}
}

func TestTheDatabaseBecomesSessions(t *testing.T) {
	files, err := ReadDatabase(writeDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || len(files[0].Skipped) != 0 {
		t.Fatalf("files = %+v", files)
	}
	checkSession(t, files[0])
}

func TestTheJSONStorageBecomesASession(t *testing.T) {
	path := writeStorage(t)
	if !IsSessionFile(path) {
		t.Fatalf("%s is not told as a session file", path)
	}
	f, err := ReadSessionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || !strings.HasSuffix(f.Skipped[0].File, "prt_09z.json") {
		t.Errorf("skipped = %+v", f.Skipped)
	}
	checkSession(t, f)
}

func TestOnlySessionFilesAreToldAsSessions(t *testing.T) {
	for path, want := range map[string]bool{
		"/h/.local/share/opencode/storage/session/prj/ses_1.json":          true,
		"/h/.local/share/opencode/storage/session/info/ses_1.json":         true,
		"/h/.local/share/opencode/storage/session/message/ses_1/msg.json":  false,
		"/h/.local/share/opencode/storage/session/part/ses_1/msg/prt.json": false,
		"/h/.local/share/opencode/storage/message/ses_1/msg.json":          false,
		"/h/proj/session/ses_1.json":                                       false,
	} {
		if IsSessionFile(path) != want {
			t.Errorf("IsSessionFile(%s) = %v", path, !want)
		}
	}
}

func TestADatabaseOfAnotherKindIsAnError(t *testing.T) {
	path := writeDatabase(t)
	db, _ := openForTest(path)
	db.Exec(`DROP TABLE part`)
	db.Close()
	if _, err := ReadDatabase(path); err == nil || !strings.Contains(err.Error(), "not an OpenCode database") {
		t.Errorf("err = %v", err)
	}
}

func TestRedactedReasoningStaysRedacted(t *testing.T) {
	b := thinking(part{Type: "reasoning", Metadata: json.RawMessage(`{"anthropic":{"redactedData":"EmwK"}}`)})
	if string(b.JSON) != `{"data":"EmwK","type":"redacted_thinking"}` {
		t.Errorf("block = %s", b.JSON)
	}
}

func TestEachSessionHandsTheSessionsOverOneAtATime(t *testing.T) {
	path := writeDatabase(t)
	db, _ := openForTest(path)
	db.Exec(`INSERT INTO session VALUES ('ses_0', 'prj', NULL, 'early-owl', '/w/old', 'Older', '1.2.0', NULL, 1766000000000, 1766000000000, NULL)`)
	db.Exec(`INSERT INTO message VALUES ('msg_00u', 'ses_0', 1766000000000, 0, '{"role":"user","time":{"created":1766000000000}}')`)
	db.Exec(`INSERT INTO part VALUES ('prt_00a', 'msg_00u', 'ses_0', 0, 0, '{"type":"text","text":"hello"}')`)
	db.Close()
	var seen []string
	if err := EachSession(path, func(f *transcript.File) error {
		seen = append(seen, f.Target.Info.ID+"/"+strconv.Itoa(len(f.Records)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seen, []string{"ses_0/1", "ses_1/5"}) {
		t.Errorf("sessions = %v, want the older first, each whole", seen)
	}
	stop := errors.New("stop")
	calls := 0
	if err := EachSession(path, func(*transcript.File) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("an error from fn: err %v after %d calls, want it returned after the first", err, calls)
	}
}
