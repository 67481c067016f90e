package importing_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/jsonenc"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

var t0 = time.Date(2025, 9, 1, 10, 0, 0, 0, time.UTC)

func rec(uuid, parent, typ, role string, sec int, blocks ...string) importing.Record {
	r := importing.Record{UUID: uuid, ParentUUID: parent, Type: typ, Role: role, CreatedAt: t0.Add(time.Duration(sec) * time.Second)}
	for _, b := range blocks {
		r.Blocks = append(r.Blocks, session.RecordBlock{JSON: []byte(b)})
	}
	return r
}

// transcript is a conversation as an importer gives it: a record that is not a message, a
// prompt, an assistant message over two records, two tool results over two, an answer.
func transcript() []importing.Record {
	a1 := rec("a1", "u1", "assistant", "assistant", 2, `{"type":"tool_use","id":"t1","name":"ls","input":{}}`)
	a1.Blocks[0].ToolUseID, a1.Meta = "t1", []byte(`{"id":"msg_1"}`)
	a2 := rec("a2", "a1", "assistant", "assistant", 3, `{"type":"tool_use","id":"t2","name":"pwd","input":{}}`)
	a2.Blocks[0].ToolUseID, a2.Meta, a2.Continues = "t2", []byte(`{"id":"msg_1","stop_reason":"tool_use"}`), true
	a2.Usage = &session.Usage{InputTokens: 100, OutputTokens: 20}
	r2 := rec("r2", "a2", "tool_result", "user", 5, `{"type":"tool_result","tool_use_id":"t2","content":"/"}`)
	r2.Continues = true
	a3 := rec("a3", "r2", "assistant", "assistant", 6, `{"type":"text","text":"done"}`)
	a3.Usage = &session.Usage{InputTokens: 150, OutputTokens: 5, CacheReadInputTokens: 50}
	return []importing.Record{
		rec("s0", "", "summary", "", 0),
		rec("u1", "", "user", "user", 1, `{"type":"text","text":"list"}`),
		a1, a2,
		rec("r1", "a1", "tool_result", "user", 4, `{"type":"tool_result","tool_use_id":"t1","content":"a.go"}`),
		r2, a3,
	}
}

func target(id string) importing.ImportTarget {
	return importing.ImportTarget{Info: session.SessionInfo{ID: id, ProjectPath: "/p", Title: "Imported", CreatedAt: t0, UpdatedAt: t0.Add(6 * time.Second)}}
}

func TestImportedRecordsAreJoinedIntoTheConversation(t *testing.T) {
	e := sessiontest.NewEnv(t)
	count, err := importing.Import(e.Mgr, target("imp-1"), transcript())
	if err != nil || count != (importing.ImportCount{Created: true, Added: 7}) {
		t.Fatalf("Import = %+v, %v", count, err)
	}
	s := e.Open(t, "imp-1")
	want := []any{
		sessiontest.Decode(t, `{"role":"user","content":[{"type":"text","text":"list"}]}`),
		sessiontest.Decode(t, `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}},{"type":"tool_use","id":"t2","name":"pwd","input":{}}],"id":"msg_1","stop_reason":"tool_use"}`),
		sessiontest.Decode(t, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go"},{"type":"tool_result","tool_use_id":"t2","content":"/"}]}`),
		sessiontest.Decode(t, `{"role":"assistant","content":[{"type":"text","text":"done"}]}`),
	}
	got := []any{}
	for _, m := range sessiontest.Messages(t, s) {
		got = append(got, m)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages =\n%v\nwant\n%v", got, want)
	}
	envs := sessiontest.Envelopes(t, s)
	if len(envs) != 7 || envs[0]["type"] != "summary" || envs[0]["message"] != nil || envs[3]["continuesPrevious"] != true {
		t.Errorf("envelopes: %d, first %v, fourth %v", len(envs), envs[0], envs[3])
	}
	for i, env := range envs {
		if env["uuid"] != transcript()[i].UUID || env["timestamp"] != jsonenc.FormatTime(transcript()[i].CreatedAt) {
			t.Errorf("envelope %d = %v %v", i, env["uuid"], env["timestamp"])
		}
	}
	if turns := sessiontest.Must(s.Turns()); !reflect.DeepEqual(turns, []session.Turn{{Index: 0, StartIndex: 0, EndIndex: 3}}) {
		t.Errorf("turns = %v", turns)
	}
	if tr := sessiontest.Must(s.TokenTracker()); tr != (session.TokenTracker{InputTokens: 250, OutputTokens: 25, CacheReadInputTokens: 50, ContextTokens: 200}) {
		t.Errorf("tracker = %+v", tr)
	}
	list := sessiontest.Must(catalog.List(e.Mgr, catalog.ListFilter{}))
	if len(list) != 1 || !list[0].UpdatedAt.Equal(t0.Add(6*time.Second)) || list[0].MessageCount != 7 || list[0].Title != "Imported" {
		t.Errorf("listing = %+v, want it last active at its last record", list)
	}
}

func TestImportingAgainAddsOnlyWhatIsNew(t *testing.T) {
	e := sessiontest.NewEnv(t)
	recs := transcript()
	sessiontest.Must(importing.Import(e.Mgr, target("imp-2"), recs[:4]))
	count, err := importing.Import(e.Mgr, target("imp-2"), recs)
	if err != nil || count != (importing.ImportCount{Added: 3, Existing: 4}) {
		t.Fatalf("second Import = %+v, %v", count, err)
	}
	again, _ := importing.Import(e.Mgr, target("imp-2"), recs)
	if again != (importing.ImportCount{Existing: 7}) {
		t.Errorf("third Import = %+v", again)
	}
	if n := len(sessiontest.Envelopes(t, e.Open(t, "imp-2"))); n != 7 {
		t.Errorf("%d records stored, want 7", n)
	}
}

func TestAnImportedSessionGoesOnLive(t *testing.T) {
	e := sessiontest.NewEnv(t)
	sessiontest.Must(importing.Import(e.Mgr, target("imp-3"), transcript()))
	s := e.Open(t, "imp-3")
	env := sessiontest.Prompt(t, s, "next")
	if env["parentUuid"] != "a3" || env["turn"] != float64(1) {
		t.Errorf("next prompt: parent %v turn %v", env["parentUuid"], env["turn"])
	}
	// Records imported into a session streaming live end its open message first.
	sessiontest.Feed(t, s, sessiontest.Text("half"))
	sessiontest.Must(importing.Import(e.Mgr, target("imp-3"), []importing.Record{rec("late", "", "system", "", 9)}))
	envs := sessiontest.Envelopes(t, s)
	if envs[len(envs)-2]["status"] != session.MessageInterrupted || envs[len(envs)-1]["uuid"] != "late" {
		t.Errorf("after an import into a live session: %v / %v", envs[len(envs)-2], envs[len(envs)-1])
	}
}

func TestSidechainRecordsTakeTheTurnOfTheirCall(t *testing.T) {
	e := sessiontest.NewEnv(t)
	sessiontest.Must(importing.Import(e.Mgr, target("imp-4"), transcript()))
	sessiontest.Must(importing.Import(e.Mgr, target("imp-4"), []importing.Record{rec("u2", "a3", "user", "user", 10, `{"type":"text","text":"again"}`)}))
	side := rec("x1", "", "user", "user", 11, `{"type":"text","text":"sub"}`)
	side.IsSidechain, side.ParentToolUseID = true, "t2"
	sessiontest.Must(importing.Import(e.Mgr, target("imp-4"), []importing.Record{side}))
	envs := sessiontest.Envelopes(t, e.Open(t, "imp-4"))
	last := envs[len(envs)-1]
	if last["isSidechain"] != true || last["turn"] != float64(0) {
		t.Errorf("sidechain record: %v turn %v, want turn 0 of its call t2", last["isSidechain"], last["turn"])
	}
}
