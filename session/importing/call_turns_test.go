package importing_test

import (
	"fmt"
	"testing"

	"github.com/sessionkeep/sessionkeep/session/importing"
	"github.com/sessionkeep/sessionkeep/session/sessiontest"
)

// call is an assistant record making tool call id, after parent.
func call(id, parent string, sec int) importing.Record {
	r := rec(id, parent, "assistant", "assistant", sec, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"ls","input":{}}`, id))
	r.Blocks[0].ToolUseID = id
	return r
}

// sidechainOf is a sidechain record run by tool call id.
func sidechainOf(uuid, id string, sec int) importing.Record {
	r := rec(uuid, "", "user", "user", sec, `{"type":"text","text":"sub"}`)
	r.IsSidechain, r.ParentToolUseID = true, id
	return r
}

func TestASidechainLongAfterItsCallTakesTheCallsTurn(t *testing.T) {
	e := sessiontest.NewEnv(t)
	in := sessiontest.Must(importing.Begin(e.Mgr, target("imp-calls")))
	first := []importing.Record{
		rec("u0", "", "user", "user", 0, `{"type":"text","text":"go"}`),
		call("first", "u0", 1),
		sidechainOf("s-elsewhere-0", "elsewhere", 2), // a call this session does not hold
	}
	if err := in.Add(first); err != nil {
		t.Fatal(err)
	}
	parent := "first"
	for batch := range 2 { // more calls than an import keeps: the first leaves its memory
		recs := []importing.Record{rec(fmt.Sprint("u", batch+1), parent, "user", "user", 3, `{"type":"text","text":"more"}`)}
		parent = recs[0].UUID
		for i := range 20000 {
			c := call(fmt.Sprintf("c%d-%d", batch, i), parent, 4)
			recs, parent = append(recs, c), c.UUID
		}
		if err := in.Add(recs); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Add([]importing.Record{sidechainOf("s-first", "first", 5), sidechainOf("s-elsewhere-1", "elsewhere", 6)}); err != nil {
		t.Fatal(err)
	}
	sessiontest.Must(in.Close())
	turns := map[string]any{}
	for _, env := range sessiontest.Envelopes(t, e.Open(t, "imp-calls")) {
		turns[env["uuid"].(string)] = env["turn"]
	}
	if turns["s-first"] != turns["first"] {
		t.Errorf("a sidechain run by a call 40,000 calls back has turn %v, its call %v", turns["s-first"], turns["first"])
	}
	if turns["s-elsewhere-1"] != turns["s-elsewhere-0"] || turns["s-elsewhere-0"] == turns["c1-0"] {
		t.Errorf("the records of a call the session does not hold have turns %v and %v (the last turn is %v): want the first one's for both",
			turns["s-elsewhere-0"], turns["s-elsewhere-1"], turns["c1-0"])
	}
}

func TestARecordMetAgainInALaterBatchOfANewSessionIsAddedOnce(t *testing.T) {
	e := sessiontest.NewEnv(t)
	in := sessiontest.Must(importing.Begin(e.Mgr, target("imp-twice")))
	if err := in.Add([]importing.Record{rec("a", "", "user", "user", 0, `{"type":"text","text":"a"}`), rec("b", "a", "user", "user", 1, `{"type":"text","text":"b"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := in.Add([]importing.Record{rec("b", "a", "user", "user", 1, `{"type":"text","text":"b"}`), rec("c", "b", "user", "user", 2, `{"type":"text","text":"c"}`)}); err != nil {
		t.Fatal(err)
	}
	if count := sessiontest.Must(in.Close()); count.Added != 3 || count.Existing != 1 {
		t.Errorf("import = %+v, want 3 added and the second b found", count)
	}
}
