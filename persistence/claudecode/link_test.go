package claudecode

import (
	"fmt"
	"testing"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/importing"
)

func TestRecentChainsKeepTwoGenerations(t *testing.T) {
	rc := &recentChains{now: map[string]string{}}
	for i := range 2*recentChainsKept + 1 {
		rc.put(fmt.Sprint(i), fmt.Sprint("chain ", i%7))
	}
	if _, ok := rc.get("0"); ok {
		t.Error("the oldest generation is still kept: the map grows with the file")
	}
	for _, i := range []int{recentChainsKept, 2*recentChainsKept - 1, 2 * recentChainsKept} {
		if chain, ok := rc.get(fmt.Sprint(i)); !ok || chain != fmt.Sprint("chain ", i%7) {
			t.Errorf("uuid %d: %q, %v; want its chain", i, chain, ok)
		}
	}
	if len(rc.now)+len(rc.before) > 2*recentChainsKept {
		t.Errorf("%d uuids kept, more than two generations", len(rc.now)+len(rc.before))
	}
}

// linkInline links record i, an inline sidechain user record with uuid and parent, on its
// own (as a streamed reading hands records on), and returns it linked.
func linkInline(c *converter, lk *linker, i int, uuid, parent, prompt string) importing.Record {
	recs := []importing.Record{{UUID: uuid, ParentUUID: parent, IsSidechain: true, Role: "user", Type: session.TypeUser}}
	infos := []recordInfo{{prompt: prompt}}
	c.linkRecord(lk, recs, infos, i, i, nil)
	return recs[0]
}

func TestTheLinkerForgetsChainsNoLaterRecordCanJoin(t *testing.T) {
	c := &converter{taskPrompts: map[string]string{"the task": "toolu_task"}}
	lk := newLinker(nil)
	linkInline(c, lk, 0, "first", "", "the task") // a chain run by the Task call toolu_task
	last := 2 * recentChainsKept
	for i := 1; i < last; i++ { // each record a chain of its own: two generations of chainOf
		linkInline(c, lk, i, fmt.Sprint("u", i), "", "")
	}
	// The oldest generation, with "first" in it, goes as this record is put: it joins the
	// chain by "first" all the same, since it found it before.
	joined := linkInline(c, lk, last, "joins", "first", "")
	if joined.ParentToolUseID != "toolu_task" {
		t.Errorf("a record joining a chain as its parent's generation goes is linked to %q, want toolu_task", joined.ParentToolUseID)
	}
	if len(lk.chains) > recentChainsKept+2 {
		t.Errorf("%d chains kept after %d records, more than chainOf can reach (%d): the linker grows with the file",
			len(lk.chains), last+1, recentChainsKept+2)
	}
	if _, ok := lk.chains[rootPrefix+"u1"]; ok {
		t.Error("a chain whose records all left chainOf is still kept")
	}
}
