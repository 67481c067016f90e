package sqlite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/persistence/sqlite/schema"
	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/branches"
	"github.com/sessionkeep/sessionkeep/session/catalog"
	"github.com/sessionkeep/sessionkeep/session/snapshots"
	"github.com/sessionkeep/sessionkeep/session/stream"
)

// TestForkCopiesBodiesUnderItsOwnID: a fork copies its messages' bodies, each naming the
// fork, shares its snapshots' blobs, and its messages are searchable.
func TestForkCopiesBodiesUnderItsOwnID(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{})
	big, _ := json.Marshal(strings.Repeat("0123456789abcdef", BlobThreshold/16+1))
	if _, err := a.AppendUserMessage(big); err != nil {
		t.Fatal(err)
	}
	mustIngest(t, a, stream.Chunk{Kind: stream.ChunkToolUse, ID: "toolu_1", Name: "Read", JSON: []byte(`{}`)})
	if _, err := a.AppendUserMessage([]byte(`[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]`)); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshots.Take(a, nil, snapshots.TakeOptions{Root: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	blobs := queryInt(t, db, `SELECT COUNT(*) FROM blobs`)

	f, err := branches.Fork(a, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM blobs`); n != blobs {
		t.Errorf("the fork added %d blobs; large payloads are shared", n-blobs)
	}
	sid := queryInt(t, db, `SELECT sid FROM sessions WHERE id = ?`, f.ID())
	for table, want := range map[string]int64{"messages": 3, "blocks": 0, "tool_uses": 1, "file_snapshots": 1} {
		if n := queryInt(t, db, `SELECT COUNT(*) FROM `+table+` WHERE sid = ?`, sid); n != want {
			t.Errorf("the fork has %d rows in %s, want %d", n, table, want)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM messages WHERE sid = ? AND instr(unpack_body(body), ?) AND NOT instr(unpack_body(body), ?)`, sid, f.ID(), a.ID()); n != 3 {
		t.Errorf("%d of the fork's 3 bodies name the fork and not its origin", n)
	}
	if got, want := scan(t, s, f.ID()), scan(t, s, a.ID()); len(got) != 3 || string(got[0].Blocks[0]) != string(want[0].Blocks[0]) {
		t.Errorf("the fork's messages differ from its origin's")
	}
	if n := queryInt(t, db, `SELECT message_count + tool_count FROM sessions WHERE sid = ?`, sid); n != 4 {
		t.Errorf("the fork's counts add up to %d, want 3 messages and 1 tool", n)
	}
	indexed(t, s)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_search WHERE body_search MATCH 'ok'`); n != 2 {
		t.Errorf("the fork's text is not searchable: %d matches, want 2", n)
	}
}

func TestBranchedFlagFollowsTheLinks(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	a := mustCreate(t, m, session.CreateOptions{})
	first, _ := a.AppendUserMessage([]byte(`"one"`))
	a.AppendUserMessageWith([]byte(`"sub"`), session.MessageOptions{AgentID: "x"})
	a.AppendUserMessage([]byte(`"two"`))
	branched := func() bool {
		t.Helper()
		b, err := s.Branched(a.ID())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if branched() {
		t.Fatal("a session written straight on, sidechain and all, is branched")
	}
	var env struct{ UUID string }
	json.Unmarshal(first, &env)
	if err := branches.Rewind(a, env.UUID); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if !branched() {
		t.Fatal("a rewound session is not branched")
	}

	// A record linked past the one before it (as imported transcripts are) marks it too,
	// and a database from before migration 5 is marked when it migrates.
	b := mustCreate(t, m, session.CreateOptions{})
	now := time.Now()
	for i, parent := range []string{"", "r0", "r0"} {
		s.Apply(session.BeginMessage{SessionID: b.ID(), Header: session.MessageHeader{
			Seq: int64(i), UUID: "r" + string(rune('0'+i)), ParentUUID: parent, Type: "user", Role: "user", CreatedAt: now}})
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Branched(b.ID()); !ok {
		t.Fatal("a record whose parent is not the one before it does not mark the session")
	}
	db := rawDB(t, path)
	exec(t, db, `UPDATE sessions SET branched = 0`)
	for _, stmt := range schema.Statements(5) {
		if strings.HasPrefix(stmt, `UPDATE sessions SET branched = 1 WHERE EXISTS`) {
			exec(t, db, stmt)
		}
	}
	if n := queryInt(t, db, `SELECT COUNT(*) FROM sessions WHERE branched = 1`); n != 1 {
		t.Fatalf("the migration marks %d sessions, want the one linked past a record", n)
	}
}

func TestDeleteTakesSnapshotsAndRewindsButKeepsSharedBlobs(t *testing.T) {
	s, path := openTemp(t)
	m := session.NewManager(s)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "shared.txt"), []byte("the same content"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := mustCreate(t, m, session.CreateOptions{})
	b := mustCreate(t, m, session.CreateOptions{})
	var prompts []string
	for _, sess := range []*session.Session{a, b} {
		env, err := sess.AppendUserMessage([]byte(`"go"`))
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ UUID string }
		json.Unmarshal(env, &e)
		prompts = append(prompts, e.UUID)
		if _, err := snapshots.Take(sess, []string{"shared.txt"}, snapshots.TakeOptions{Root: root}); err != nil {
			t.Fatal(err)
		}
	}
	a.AppendUserMessage([]byte(`"again"`))
	if err := branches.Rewind(a, prompts[0]); err != nil {
		t.Fatal(err)
	}
	id := a.ID()
	a.Close()
	if err := catalog.Delete(m, id); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	for _, table := range []string{"rewinds", "file_snapshots", "snapshot_files"} {
		want := int64(1)
		if table == "rewinds" {
			want = 0
		}
		if n := queryInt(t, db, `SELECT COUNT(*) FROM `+table); n != want {
			t.Errorf("%d rows left in %s after the delete, want %d", n, table, want)
		}
	}
	into := t.TempDir()
	if _, err := snapshots.Restore(b, prompts[1], snapshots.RestoreOptions{Into: into}); err != nil {
		t.Fatalf("the other session's snapshot lost its shared content: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(into, "shared.txt")); string(got) != "the same content" {
		t.Fatalf("restored %q", got)
	}
}
