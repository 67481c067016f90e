package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
)

// branchedByRule is the sessions of the store at url that the trigger's rule marks, judged
// from their stored messages: a main-chain message whose parent is set and is not the uuid
// of the main-chain message before it by seq.
func branchedByRule(t *testing.T, url string) map[string]bool {
	t.Helper()
	c := connectAt(t, url)
	rows, err := c.Query(context.Background(), `SELECT s.id, EXISTS (
			SELECT 1 FROM (SELECT m.parent_uuid, lag(m.uuid) OVER (ORDER BY m.seq) AS before
				FROM messages m WHERE m.sid = s.sid AND NOT m.is_sidechain) c
			WHERE c.parent_uuid <> '' AND c.parent_uuid IS DISTINCT FROM c.before)
		FROM sessions s`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[string]bool{}
	for rows.Next() {
		var id string
		var branched bool
		if err := rows.Scan(&id, &branched); err != nil {
			t.Fatal(err)
		}
		want[id] = branched
	}
	return want
}

// branchWriter writes messages of chosen parents to sessions of a store, in batches.
type branchWriter struct {
	t     *testing.T
	store *Store
	next  map[string]int64    // per session, the next seq
	main  map[string][]string // per session, the uuids of its main chain
	n     int
}

func newBranchWriter(t *testing.T, store *Store) *branchWriter {
	return &branchWriter{t: t, store: store, next: map[string]int64{}, main: map[string][]string{}}
}

func (w *branchWriter) create(id string) {
	now := time.Now()
	w.store.Apply(session.CreateSession{Info: session.SessionInfo{ID: id, CreatedAt: now, UpdatedAt: now, Status: "active"}})
	w.next[id] = 0
}

// write adds a message to session id whose parent is parent; whole ends it in the same
// Ops (inserted whole), otherwise it stays streaming.
func (w *branchWriter) write(id, parent string, sidechain, whole bool) string {
	w.n++
	uuid := fmt.Sprintf("m-%s-%d", id, w.n)
	seq := w.next[id]
	w.next[id]++
	w.store.Apply(session.BeginMessage{SessionID: id, Header: session.MessageHeader{Seq: seq, UUID: uuid, ParentUUID: parent,
		IsSidechain: sidechain, Type: "user", Role: "user", CreatedAt: time.Now()}})
	if whole {
		w.store.Apply(session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete})
	}
	if !sidechain {
		w.main[id] = append(w.main[id], uuid)
	}
	return uuid
}

// last is the uuid of session id's last main-chain message, "" for none.
func (w *branchWriter) last(id string) string {
	if m := w.main[id]; len(m) > 0 {
		return m[len(m)-1]
	}
	return ""
}

func (w *branchWriter) flush() {
	w.t.Helper()
	if err := w.store.Flush(); err != nil {
		w.t.Fatal(err)
	}
}

// branched reads the flag of session id.
func (w *branchWriter) branched(id string) bool {
	w.t.Helper()
	b, err := w.store.Branched(id)
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

// TestWriterMarksTheBranchesTheTriggerMarked names each case the writer must judge as
// migration 5's trigger did: a message that follows (not branched), a batch whose first
// message branches from a message of an earlier batch, a sidechain message with another
// parent (not branched) and the main chain going on after it, a first message whose parent
// is not stored, a branch in a run long enough for the multi-row insert, a fork that copies
// a branch, and a message added after a restore.
func TestWriterMarksTheBranchesTheTriggerMarked(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	w := newBranchWriter(t, store)
	for _, id := range []string{"follows", "earlier", "sidechain", "orphan", "long", "restored"} {
		w.create(id)
	}
	w.flush()

	a := w.write("follows", "", false, true)
	w.write("follows", a, false, false)
	w.write("earlier", "", false, true)
	first := w.last("earlier")
	w.write("earlier", first, false, true)
	s := w.write("sidechain", "", false, true)
	w.write("sidechain", "elsewhere", true, true)
	w.write("sidechain", s, false, true)
	w.write("orphan", "never-stored", false, true)
	for i := 0; i < 20; i++ {
		w.write("long", w.last("long"), false, true)
	}
	w.flush()
	w.write("follows", w.last("follows"), false, true)
	w.write("earlier", first, false, true) // the batch's first message branches from batch 2's first
	w.write("sidechain", w.last("sidechain"), false, true)
	for i := 0; i < 20; i++ {
		parent := w.last("long")
		if i == 11 {
			parent = w.main["long"][3]
		}
		w.write("long", parent, false, true)
	}
	w.flush()

	want := map[string]bool{"follows": false, "earlier": true, "sidechain": false, "orphan": true, "long": true}
	for id, branched := range want {
		if got := w.branched(id); got != branched {
			t.Errorf("session %q branched = %v, want %v", id, got, branched)
		}
	}

	// A fork of "long" up to past its branch, and one of "follows": the copies decide.
	fork := func(id, from string, seqs ...int64) {
		store.Apply(session.ForkSession{Info: session.SessionInfo{ID: id, CreatedAt: time.Now(), UpdatedAt: time.Now(), Status: "active",
			ForkedFrom: &session.ForkOrigin{SessionID: from, UUID: w.main[from][0]}}, From: from, Seqs: seqs})
	}
	fork("fork-long", "long", 0, 1, 2, 3, 32)
	fork("fork-follows", "follows", 0, 1, 2)
	w.flush()
	if !w.branched("fork-long") || w.branched("fork-follows") {
		t.Errorf("forks branched: of the branch %v (want true), of the straight chain %v (want false)",
			w.branched("fork-long"), w.branched("fork-follows"))
	}

	// A restore writes the records as they were, then the session goes on after them.
	m := session.NewManager(store)
	r, err := m.Open("restored")
	if err != nil {
		t.Fatal(err)
	}
	restored := `[{"role":"user","content":"one"},{"role":"assistant","content":[{"type":"text","text":"two"}]},{"role":"user","content":"three"}]`
	if err := r.RestoreMessages([]byte(restored)); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.branched("restored") {
		t.Errorf("a restore of a straight chain branched its session")
	}
	if _, err := r.AppendUserMessage([]byte(`"four"`)); err != nil {
		t.Fatal(err)
	}
	if err := store.Flush(); err != nil {
		t.Fatal(err)
	}
	if w.branched("restored") {
		t.Errorf("a message appended after a restore branched its session")
	}
	checkAgainstRule(t, url, w)
}

// checkAgainstRule fails for each session whose flag is not what the rule judges.
func checkAgainstRule(t *testing.T, url string, w *branchWriter) {
	t.Helper()
	for id, branched := range branchedByRule(t, url) {
		if got := w.branched(id); got != branched {
			t.Errorf("session %q branched = %v, the rule over its messages says %v", id, got, branched)
		}
	}
}

// TestWriterMarksRandomBranchesAsTheRule writes sessions of random chains (messages that
// follow, branch from an earlier one, sidechain, or have no parent; whole or streaming) in
// batches of random sizes, interleaved, and checks every session's flag against the rule
// over what was stored.
func TestWriterMarksRandomBranchesAsTheRule(t *testing.T) {
	url := freshURL(t)
	store := openAt(t, url)
	w := newBranchWriter(t, store)
	rnd := rand.New(rand.NewPCG(30, 6))
	var ids []string
	for i := 0; i < 24; i++ {
		id := fmt.Sprintf("s%d", i)
		ids = append(ids, id)
		w.create(id)
	}
	w.flush()
	for batch := 0; batch < 30; batch++ {
		n := 1 + rnd.IntN(40)
		for i := 0; i < n; i++ {
			id := ids[rnd.IntN(len(ids))]
			// Most sessions branch rarely, so that a later batch's branch is the one that counts.
			parent, sidechain := w.last(id), false
			switch k := rnd.IntN(100); {
			case k < 3 && len(w.main[id]) > 1:
				parent = w.main[id][rnd.IntN(len(w.main[id])-1)]
			case k < 10:
				sidechain, parent = true, fmt.Sprintf("elsewhere-%d", k)
			case k < 12:
				parent = ""
			}
			w.write(id, parent, sidechain, rnd.IntN(4) > 0)
		}
		w.flush()
	}
	checkAgainstRule(t, url, w)
	marked := 0
	for _, id := range ids {
		if w.branched(id) {
			marked++
		}
	}
	if marked == 0 || marked == len(ids) {
		t.Errorf("%d of %d sessions branched: the test must have both", marked, len(ids))
	}
}

// TestWritersTakingTurnsMarkBranchesAsTheRule has two stores (two writers, as two hosts)
// write the same sessions in turn: what one writer knows of a session's main chain is stale
// once the other wrote, and each must judge from what is stored.
func TestWritersTakingTurnsMarkBranchesAsTheRule(t *testing.T) {
	url := freshURL(t)
	first, second := openAt(t, url), openAt(t, url)
	w := newBranchWriter(t, first)
	for _, id := range []string{"follows", "branches-after-other", "other-branches"} {
		w.create(id)
	}
	w.flush()
	turn := func(store *Store, id, parent string) {
		w.store = store
		w.write(id, parent, false, true)
		w.flush()
	}
	for _, id := range []string{"follows", "branches-after-other", "other-branches"} {
		turn(first, id, "")
		turn(first, id, w.last(id))
		turn(second, id, w.last(id))
	}
	turn(first, "follows", w.last("follows"))                              // follows the other writer's message
	turn(first, "branches-after-other", w.main["branches-after-other"][1]) // the other's message was last
	turn(second, "other-branches", w.main["other-branches"][0])
	turn(first, "other-branches", w.last("other-branches"))
	want := map[string]bool{"follows": false, "branches-after-other": true, "other-branches": true}
	for id, branched := range want {
		if got := w.branched(id); got != branched {
			t.Errorf("session %q branched = %v, want %v", id, got, branched)
		}
	}
	checkAgainstRule(t, url, w)
}
