package sqlite

import (
	"fmt"
	"testing"
	"time"

	"github.com/sessionkeep/sessionkeep/session"
	"github.com/sessionkeep/sessionkeep/session/catalog"
)

// record is the ops of a whole user record of session id, one batch's worth when applied
// together: begun and ended at once, so the writer inserts it with its body.
func record(id string, seq int64, uuid, parent, text string) []session.Op {
	return []session.Op{
		session.BeginMessage{SessionID: id, Header: session.MessageHeader{
			Seq: seq, UUID: uuid, ParentUUID: parent, Type: "user", Role: "user", CreatedAt: time.Now()}},
		session.PutBlock{SessionID: id, Seq: seq, Index: 0, JSON: []byte(fmt.Sprintf(`{"type":"text","text":%q}`, text))},
		session.EndMessage{SessionID: id, Seq: seq, Status: session.MessageComplete},
	}
}

func TestBranchedWhenABatchDoesNotFollowWhatIsStored(t *testing.T) {
	s, _ := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s1")})
	apply := func(ops ...[]session.Op) bool {
		t.Helper()
		var all []session.Op
		for _, o := range ops {
			all = append(all, o...)
		}
		s.Apply(all...)
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		b, err := s.Branched("s1")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if apply(record("s1", 0, "r0", "", "one"), record("s1", 1, "r1", "r0", "two")) {
		t.Fatal("a batch written straight on is branched")
	}
	if apply(record("s1", 2, "r2", "r1", "three")) {
		t.Fatal("a batch that follows the stored records is branched")
	}
	if !apply(record("s1", 3, "r3", "r1", "four"), record("s1", 4, "r4", "r3", "five")) {
		t.Fatal("a batch whose first record is linked past the stored one before it is not branched")
	}
}

func TestNoTriggerRunsOnAMessageInsert(t *testing.T) {
	_, path := openTemp(t)
	db := rawDB(t, path)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages' AND sql LIKE '%AFTER INSERT%'`); n != 0 {
		t.Fatalf("%d AFTER INSERT triggers on messages: each makes every insert open a statement journal", n)
	}
}

func TestForkCopiesTheBranchedFlagFromItsRecords(t *testing.T) {
	s, _ := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("s1")})
	s.Apply(record("s1", 0, "r0", "", "one")...)
	s.Apply(record("s1", 1, "r1", "r0", "two")...)
	s.Apply(record("s1", 2, "r2", "r0", "three")...) // a second child of r0
	for _, fork := range []struct {
		id       string
		seqs     []int64
		branched bool
	}{{"straight", []int64{0, 1}, false}, {"both-children", []int64{0, 1, 2}, true}} {
		info := newInfo(fork.id)
		info.ForkedFrom = &session.ForkOrigin{SessionID: "s1", UUID: "r0"}
		s.Apply(session.ForkSession{From: "s1", Info: info, Seqs: fork.seqs})
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		if b, err := s.Branched(fork.id); err != nil || b != fork.branched {
			t.Errorf("fork %s: branched %v, %v; want %v", fork.id, b, err, fork.branched)
		}
	}
}

func TestRowsInsertedAndDeletedInOneBatchLeaveTheSearchIndexWhole(t *testing.T) {
	s, path := openTemp(t)
	s.Apply(session.CreateSession{Info: newInfo("kept")})
	s.Apply(record("kept", 0, "k0", "", "capybara kept")...)
	if hits, err := s.Search(catalog.SearchQuery{Text: "capybara", Limit: 10}); err != nil || len(hits) != 1 {
		t.Fatalf("search before: %+v, %v", hits, err)
	}
	// One Apply is one batch: the rows are inserted, then deleted with their session,
	// before the batch commits.
	ops := []session.Op{session.CreateSession{Info: newInfo("gone")}}
	ops = append(ops, record("gone", 0, "g0", "", "capybara gone")...)
	ops = append(ops, session.DeleteSession{SessionID: "gone"})
	s.Apply(ops...)
	hits, err := s.Search(catalog.SearchQuery{Text: "capybara", Limit: 10})
	if err != nil || len(hits) != 1 || hits[0].SessionID != "kept" {
		t.Fatalf("search after: %+v, %v; want the kept record alone", hits, err)
	}
	db := rawDB(t, path)
	exec(t, db, `INSERT INTO body_search(body_search) VALUES ('integrity-check')`)
	if n := queryInt(t, db, `SELECT COUNT(*) FROM body_pending`); n != 0 {
		t.Errorf("%d rows still queued for search after a search", n)
	}
}
