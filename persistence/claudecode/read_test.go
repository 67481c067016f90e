package claudecode

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

// lines joins records, one a line, as a transcript.
func lines(records ...string) string { return strings.Join(records, "\n") + "\n" }

func read(t *testing.T, text string, agentCalls map[string]string) *Transcript {
	t.Helper()
	tr, err := Read(strings.NewReader(text), "t.jsonl", agentCalls, nil)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return tr
}

// stored turns records into what a store gives back, to write them again.
func stored(recs []importing.Record) []session.StoredMessage {
	out := make([]session.StoredMessage, len(recs))
	for i, r := range recs {
		m := session.StoredMessage{UUID: r.UUID, ParentUUID: r.ParentUUID, SessionID: "s1", Type: r.Type, Role: r.Role,
			CreatedAt: r.CreatedAt, RequestID: r.RequestID, IsSidechain: r.IsSidechain, Continues: r.Continues, Meta: r.Meta, Extra: r.Extra}
		for _, b := range r.Blocks {
			m.Blocks = append(m.Blocks, b.JSON)
		}
		out[i] = m
	}
	return out
}

func write(t *testing.T, msgs []session.StoredMessage) []map[string]any {
	t.Helper()
	var buf bytes.Buffer
	st := session.SessionState{Info: session.SessionInfo{ID: "s1", ProjectPath: "/proj", Model: "claude-test"}}
	err := Write(&buf, st, func(fn func(*session.StoredMessage) error) error {
		for i := range msgs {
			if err := fn(&msgs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("Write wrote %q: %v", l, err)
		}
		out = append(out, v)
	}
	return out
}

const (
	userLine = `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/proj","sessionId":"s1","version":"2.1.15","gitBranch":"","type":"user","message":{"role":"user","content":"list files"},"uuid":"u1","timestamp":"2026-01-22T19:38:12.032Z","thinkingMetadata":{"level":"high","disabled":false,"triggers":[]},"todos":[],"permissionMode":"default"}`
	a1       = `{"parentUuid":"u1","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"thinking","thinking":"hm","signature":"sig"}],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}},"requestId":"req_1","uuid":"a1","timestamp":"2026-01-22T19:38:13.000Z"}`
	a2       = `{"parentUuid":"a1","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}},"requestId":"req_1","uuid":"a2","timestamp":"2026-01-22T19:38:13.100Z"}`
	a3       = `{"parentUuid":"a2","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[{"type":"tool_use","id":"t2","name":"pwd","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":30}},"requestId":"req_1","uuid":"a3","timestamp":"2026-01-22T19:38:13.200Z"}`
	r1       = `{"parentUuid":"a2","isSidechain":false,"sessionId":"s1","type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"a.go"}]},"uuid":"r1","timestamp":"2026-01-22T19:38:14.000Z","toolUseResult":{"stdout":"a.go","stderr":"","interrupted":false,"isImage":false},"sourceToolAssistantUUID":"a2"}`
	r2       = `{"parentUuid":"a3","isSidechain":false,"sessionId":"s1","type":"user","message":{"role":"user","content":[{"tool_use_id":"t2","type":"tool_result","content":"/proj","is_error":true}]},"uuid":"r2","timestamp":"2026-01-22T19:38:14.100Z","toolUseResult":"Error: nope"}`
	a4       = `{"parentUuid":"r2","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":50,"output_tokens":2}},"uuid":"a4","timestamp":"2026-01-22T19:38:15.000Z"}`
	summary  = `{"type":"summary","summary":"Listing files","leafUuid":"a4"}`
)

func TestLinesOfOneMessageContinueItAndCountItsUsageOnce(t *testing.T) {
	tr := read(t, lines(summary, userLine, a1, a2, a3, r1, r2, a4), nil)
	var continues []bool
	var usage []any
	for _, r := range tr.Records {
		continues = append(continues, r.Continues)
		if r.Usage != nil {
			usage = append(usage, r.UUID, r.Usage.OutputTokens)
		} else {
			usage = append(usage, r.UUID, nil)
		}
	}
	if want := []bool{false, false, false, true, true, false, true, false}; !reflect.DeepEqual(continues, want) {
		t.Errorf("continues = %v, want %v", continues, want)
	}
	wantUsage := []any{tr.Records[0].UUID, nil, "u1", nil, "a1", nil, "a2", nil, "a3", int64(30), "r1", nil, "r2", nil, "a4", int64(2)}
	if !reflect.DeepEqual(usage, wantUsage) {
		t.Errorf("usage = %v, want %v (once per message, on its last line)", usage, wantUsage)
	}
	types := []string{}
	for _, r := range tr.Records {
		types = append(types, r.Type+"/"+r.Role)
	}
	if want := []string{"summary/", "user/user", "assistant/assistant", "assistant/assistant", "assistant/assistant",
		"tool_result/user", "tool_result/user", "assistant/assistant"}; !reflect.DeepEqual(types, want) {
		t.Errorf("types = %v, want %v", types, want)
	}
	info := tr.Target.Info
	if info.ID != "s1" || info.Title != "Listing files" || info.ProjectPath != "/proj" || info.Model != "claude-test" {
		t.Errorf("target = %+v", info)
	}
}

func TestEveryRecordIsWrittenBackFieldForField(t *testing.T) {
	text := lines(summary, userLine, a1, a2, a3, r1, r2, a4)
	tr := read(t, text, nil)
	got := write(t, stored(tr.Records))
	for i, l := range strings.Split(strings.TrimSpace(text), "\n") {
		var want map[string]any
		json.Unmarshal([]byte(l), &want)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("record %d:\n got %v\nwant %v", i, got[i], want)
		}
	}
}

func TestTheEnvelopeHoldsWhatItModels(t *testing.T) {
	tr := read(t, lines(userLine, a1, a2, r1), nil)
	var u, r session.EnvelopeExtra
	json.Unmarshal(tr.Records[0].Extra, &u)
	json.Unmarshal(tr.Records[3].Extra, &r)
	if string(u.Context) != `{"cwd":"/proj","gitBranch":""}` || string(u.Todos) != `[]` || string(u.ThinkingMetadata) != `{"level":"high","disabled":false,"triggers":[]}` {
		t.Errorf("user state: context %s todos %s thinking %s", u.Context, u.Todos, u.ThinkingMetadata)
	}
	var src source
	json.Unmarshal(u.Source, &src)
	for _, moved := range []string{"cwd", "gitBranch", "todos", "thinkingMetadata", "message"} {
		if _, ok := src.Record[moved]; ok {
			t.Errorf("%s is both in the envelope and in its source", moved)
		}
	}
	if src.Content != contentString || string(src.Record["permissionMode"]) != `"default"` {
		t.Errorf("source = %+v", src)
	}
	if string(r.ToolUseResults["t1"]) != `{"stdout":"a.go","stderr":"","interrupted":false,"isImage":false}` {
		t.Errorf("toolUseResults = %s", r.ToolUseResults)
	}
	if tr.Records[1].RequestID != "req_1" {
		t.Errorf("requestId = %q", tr.Records[1].RequestID)
	}
}

func TestInlineSidechainsAreLinkedToTheTaskCallByItsPrompt(t *testing.T) {
	task := `{"parentUuid":"u1","isSidechain":false,"sessionId":"s1","type":"assistant","message":{"id":"msg_t","role":"assistant","content":[{"type":"tool_use","id":"toolu_task","name":"Task","input":{"description":"look","prompt":"Look around"}}]},"uuid":"at","timestamp":"2025-09-01T00:00:01.000Z"}`
	side1 := `{"parentUuid":null,"isSidechain":true,"sessionId":"s1","type":"user","message":{"role":"user","content":"Look around"},"uuid":"s-u","timestamp":"2025-09-01T00:00:02.000Z"}`
	side2 := `{"parentUuid":"s-u","isSidechain":true,"sessionId":"s1","type":"assistant","message":{"id":"msg_s","role":"assistant","content":[{"type":"text","text":"ok"}]},"uuid":"s-a","timestamp":"2025-09-01T00:00:03.000Z"}`
	tr := read(t, lines(userLine, task, side1, side2), nil)
	for _, r := range tr.Records[2:] {
		if !r.IsSidechain || r.ParentToolUseID != "toolu_task" {
			t.Errorf("record %s: sidechain %v, parent call %q", r.UUID, r.IsSidechain, r.ParentToolUseID)
		}
	}
}

func TestSubagentRecordsAreLinkedByTheParentsAgentCalls(t *testing.T) {
	sub := `{"parentUuid":null,"isSidechain":true,"agentId":"a7","sessionId":"s1","type":"user","message":{"role":"user","content":"go"},"uuid":"x1","timestamp":"2025-09-01T00:00:02.000Z"}`
	parent := `{"parentUuid":"a2","isSidechain":false,"sessionId":"s1","type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"launched"}]},"uuid":"r1","timestamp":"2026-01-22T19:38:14.000Z","toolUseResult":{"status":"async_launched","agentId":"a7"}}`
	calls := read(t, lines(parent), nil).AgentCalls
	if calls["a7"] != "t1" {
		t.Fatalf("AgentCalls = %v", calls)
	}
	r := read(t, lines(sub), calls).Records[0]
	if r.ParentToolUseID != "t1" || !strings.Contains(string(r.Extra), `"agentId":"a7","parentToolUseId":"t1"`) {
		t.Errorf("record: parent call %q extra %s", r.ParentToolUseID, r.Extra)
	}
}

func TestDamagedLinesAreReportedAndSkipped(t *testing.T) {
	badBlock := `{"type":"user","uuid":"b1","message":{"role":"user","content":[{"type":"image","source":"nope"}]}}`
	tr := read(t, lines(userLine, `{"type":"user","uuid":`, "", `{"uuid":"x"}`, `"text"`, badBlock, a1), nil)
	var got []string
	for _, s := range tr.Skipped {
		got = append(got, s.Reason)
		if s.File != "t.jsonl" {
			t.Errorf("skipped file = %q", s.File)
		}
	}
	want := []string{"not a JSON object", `no string "type"`, "not a JSON object", `message.content[0]: image block: field "source" must be an object`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reasons = %q, want %q", got, want)
	}
	if lines := []int{tr.Skipped[0].Line, tr.Skipped[1].Line, tr.Skipped[2].Line, tr.Skipped[3].Line}; !reflect.DeepEqual(lines, []int{2, 4, 5, 6}) {
		t.Errorf("skipped lines = %v (blank line 3 is no record and no damage)", lines)
	}
	if len(tr.Records) != 2 {
		t.Errorf("%d records read, want the 2 good ones", len(tr.Records))
	}
}

func TestRecordsWithoutAUUIDGetTheSameOneEveryTime(t *testing.T) {
	queue := `{"type":"queue-operation","operation":"dequeue","timestamp":"2026-01-22T21:11:35.066Z","sessionId":"s1"}`
	first := read(t, lines(queue, queue, userLine), nil).Records
	again := read(t, lines(queue, queue, userLine), nil).Records
	if first[0].UUID != again[0].UUID || first[1].UUID != again[1].UUID {
		t.Errorf("ids differ between reads: %s %s / %s %s", first[0].UUID, first[1].UUID, again[0].UUID, again[1].UUID)
	}
	if first[0].UUID == first[1].UUID {
		t.Errorf("two identical lines share id %s", first[0].UUID)
	}
	if first[0].UUID[14] != '8' {
		t.Errorf("id %s is not a version 8 UUID", first[0].UUID)
	}
}

func TestMadeRecordsCloseTheChainOverRecordsLeftOut(t *testing.T) {
	msgs := []session.StoredMessage{
		{UUID: "m1", SessionID: "s1", Type: "user", Role: "user", Blocks: [][]byte{[]byte(`{"type":"text","text":"hi"}`)}},
		{UUID: "e1", ParentUUID: "m1", SessionID: "s1", Type: "event_msg", Extra: []byte(`{"source":{"format":"codex","record":{}}}`)},
		{UUID: "m2", ParentUUID: "e1", SessionID: "s1", Type: "assistant", Role: "assistant",
			Blocks: [][]byte{[]byte(`{"type":"reasoning","encrypted_content":"x"}`)}},
		{UUID: "m3", ParentUUID: "m2", SessionID: "s1", Type: "assistant", Role: "assistant", Continues: true,
			Meta:   []byte(`{"model":"gpt-5"}`),
			Blocks: [][]byte{[]byte(`{"type":"text","text":"yo"}`), []byte(`{"type":"server_thing_v2","x":1}`)}},
	}
	got := write(t, msgs)
	if len(got) != 2 {
		t.Fatalf("wrote %d records, want 2: %v", len(got), got)
	}
	if got[1]["parentUuid"] != "m1" {
		t.Errorf("parentUuid = %v, want m1 past the records left out", got[1]["parentUuid"])
	}
	msg := got[1]["message"].(map[string]any)
	if msg["model"] != "gpt-5" || msg["type"] != "message" || msg["id"] != "msg_m3" || len(msg["content"].([]any)) != 2 {
		t.Errorf("message = %v", msg)
	}
	if got[0]["cwd"] != "/proj" || got[0]["version"] != Version || got[0]["userType"] != "external" {
		t.Errorf("record = %v", got[0])
	}
}
